// The messages between a worker thread and the app (worker-rpc.ts the app's side,
// worker-rpc-serve.ts the thread's); docs/decisions/0093-worker-rpc-helper.md.
import type { TransferListItem } from "node:worker_threads";

/**
 * What a thread serves: method name -> its handler, which takes one structured-cloneable input.
 * Shared as a type by both sides, so a call's input and result are checked at compile time.
 */
export type WorkerMethods<M> = { [K in keyof M]: (input: never) => unknown };

/** A result that moves its buffers to the app instead of copying them (worker-rpc-serve.ts). */
export class Transferred<T> {
  constructor(
    readonly value: T,
    readonly transfer: readonly TransferListItem[],
  ) {}
}

/** What a call of `method` resolves with in the app. */
export type WorkerResult<F> = F extends (input: never) => infer R
  ? Awaited<R> extends Transferred<infer T>
    ? T
    : Awaited<R>
  : never;

/** A handler's input (none: `undefined`). */
export type WorkerInput<F> = F extends (input: infer I) => unknown ? I : never;

export type WorkerRequest = { id: number; method: string; input: unknown };

export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: SerializedError };

/** What the thread says unasked: "ready" once it serves, or one of its own (a failed upkeep). */
export type WorkerNotice = { id?: undefined; notice: string; data?: unknown };

export const READY_NOTICE = "ready";

/** An error as it crosses threads: its message, name and own fields (code, detail, ...). */
export type SerializedError = { message: string; name: string; fields: Record<string, unknown> };

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { message: String(error), name: "Error", fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === "function") continue;
    try {
      structuredClone(value);
      fields[key] = value;
    } catch {
      fields[key] = String(value);
    }
  }
  return { message: error.message, name: error.name, fields };
}

export function deserializeError({ message, name, fields }: SerializedError): Error {
  const error = Object.assign(new Error(message), fields);
  error.name = name;
  return error;
}
