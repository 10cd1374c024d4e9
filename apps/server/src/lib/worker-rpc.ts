import type { TransferListItem, Worker } from "node:worker_threads";
import {
  deserializeError,
  READY_NOTICE,
  type WorkerInput,
  type WorkerMethods,
  type WorkerNotice,
  type WorkerReply,
  type WorkerRequest,
  type WorkerResult,
} from "./worker-rpc-protocol.ts";

export interface WorkerCallOptions {
  /** Buffers the input moves to the thread instead of copying (they are unusable here after). */
  transfer?: readonly TransferListItem[];
  /** Rejects the call with the signal's reason and forgets it: a late answer is dropped. */
  signal?: AbortSignal;
}

export interface WorkerRpcOptions {
  /**
   * The error every pending and later call rejects with once the thread stops: `cause` is the
   * thread's error or its exit code; `starting`: it stopped before it said it was ready.
   */
  stopped(cause: Error | number, starting: boolean): Error;
  /** The thread stopped after it was ready and before close() (not called for either). */
  onFailure?: (error: Error) => void;
  /** What the thread says unasked (worker-rpc-serve.ts's `notify`). */
  onNotice?: (notice: string, data: unknown) => void;
  /** The thread keeps the process alive only while a call is pending. */
  unrefWhenIdle?: boolean;
}

export interface WorkerRpc<M extends WorkerMethods<M>> {
  call<K extends keyof M & string>(
    method: K,
    input: WorkerInput<M[K]>,
    options?: WorkerCallOptions,
  ): Promise<WorkerResult<M[K]>>;
  /** Settles when the thread serves; rejects if it stops first. */
  readonly ready: Promise<void>;
  /** Calls sent and not answered yet. */
  pendingCalls(): number;
  /**
   * Stops the thread, after `farewell` (a last call, its failure ignored) if given. A stop
   * from here on is not a failure; calls still pending reject with the `stopped` error.
   */
  close(farewell?: () => Promise<unknown>): Promise<void>;
}

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const ignore = () => {};

/**
 * The app's side of a worker thread served by worker-rpc-serve.ts: numbered calls, each settled
 * by its own answer in whatever order the answers come. The hot path (a PGlite statement) is
 * one promise, one map entry and one postMessage per call.
 */
export function connectWorkerRpc<M extends WorkerMethods<M>>(
  worker: Worker,
  options: WorkerRpcOptions,
): WorkerRpc<M> {
  const pending = new Map<number, PendingCall>();
  const unrefWhenIdle = options.unrefWhenIdle ?? false;
  let nextId = 1;
  let started = false;
  let failure: Error | undefined;
  let closing: Promise<void> | undefined;
  let markReady: () => void = ignore;
  let failReady: (error: Error) => void = ignore;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  // Whoever does not wait for `ready` learns of a failed start from its calls instead.
  ready.catch(ignore);
  if (unrefWhenIdle) worker.unref();

  const settled = () => {
    if (unrefWhenIdle && pending.size === 0) worker.unref();
  };

  const stop = (cause: Error | number) => {
    if (failure) return;
    failure = options.stopped(cause, !started);
    if (!started) failReady(failure);
    else if (!closing) options.onFailure?.(failure);
    for (const call of pending.values()) call.reject(failure);
    pending.clear();
  };

  worker.on("message", (message: WorkerReply | WorkerNotice) => {
    if (message.id === undefined) {
      if (message.notice === READY_NOTICE) {
        started = true;
        markReady();
      } else options.onNotice?.(message.notice, message.data);
      return;
    }
    const call = pending.get(message.id);
    if (!call) return;
    pending.delete(message.id);
    settled();
    if (message.ok) call.resolve(message.result);
    else call.reject(deserializeError(message.error));
  });
  worker.on("error", stop);
  worker.on("exit", stop);

  const call = (method: string, input: unknown, callOptions?: WorkerCallOptions) => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const signal = callOptions?.signal;
      if (signal) {
        if (signal.aborted) return reject(signal.reason);
        const onAbort = () => {
          if (pending.delete(id)) settled();
          reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        pending.set(id, {
          resolve(value) {
            signal.removeEventListener("abort", onAbort);
            resolve(value);
          },
          reject(error) {
            signal.removeEventListener("abort", onAbort);
            reject(error);
          },
        });
      } else {
        pending.set(id, { resolve, reject });
      }
      if (unrefWhenIdle && pending.size === 1) worker.ref();
      try {
        worker.postMessage({ id, method, input } satisfies WorkerRequest, callOptions?.transfer);
      } catch (error) {
        // An input that cannot be cloned: nothing was sent, so nothing will answer.
        pending.get(id)?.reject(error as Error);
        pending.delete(id);
        settled();
      }
    });
  };

  return {
    call: call as WorkerRpc<M>["call"],
    ready,
    pendingCalls: () => pending.size,
    close(farewell) {
      closing ??= (farewell ? farewell().catch(ignore) : Promise.resolve()).then(async () => {
        await worker.terminate();
      });
      return closing;
    },
  };
}
