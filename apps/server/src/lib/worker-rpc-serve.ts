// The thread's side of worker-rpc.ts: each request runs its method's handler and is answered
// with what the handler gives, or with its error, own fields included (a database error's code).
import { parentPort } from "node:worker_threads";
import {
  READY_NOTICE,
  serializeError,
  Transferred,
  type WorkerMethods,
  type WorkerNotice,
  type WorkerReply,
  type WorkerRequest,
} from "./worker-rpc-protocol.ts";

export interface WorkerServer {
  /** Tells the app something unasked (worker-rpc.ts's `onNotice`). */
  notify(notice: string, data?: unknown): void;
}

/**
 * Serves `handlers` to the app and says the thread is ready: call it once the thread's own
 * set-up is done (a request sent before waits in the port until then).
 */
export function serveWorkerRpc<M extends WorkerMethods<M>>(handlers: M): WorkerServer {
  const port = parentPort;
  if (!port) throw new Error("serveWorkerRpc runs in a worker thread");
  const send = (reply: WorkerReply) => {
    try {
      if (reply.ok && reply.result instanceof Transferred) {
        port.postMessage({ ...reply, result: reply.result.value }, reply.result.transfer);
      } else {
        port.postMessage(reply);
      }
    } catch (error) {
      // A result that cannot cross (not cloneable): the call fails instead of never settling.
      port.postMessage({ id: reply.id, ok: false, error: serializeError(error) });
    }
  };
  const table = handlers as unknown as Record<string, ((input: unknown) => unknown) | undefined>;

  port.on("message", ({ id, method, input }: WorkerRequest) => {
    let result: unknown;
    try {
      const handler = Object.hasOwn(table, method) ? table[method] : undefined;
      if (!handler) throw new Error(`No method ${method} in this worker`);
      result = handler(input);
    } catch (error) {
      send({ id, ok: false, error: serializeError(error) });
      return;
    }
    if (result instanceof Promise) {
      result.then(
        (value: unknown) => send({ id, ok: true, result: value }),
        (error: unknown) => send({ id, ok: false, error: serializeError(error) }),
      );
    } else {
      send({ id, ok: true, result });
    }
  });

  const notify = (notice: string, data?: unknown) =>
    port.postMessage({ notice, data } satisfies WorkerNotice);
  notify(READY_NOTICE);
  return { notify };
}
