// The messages between the app and the PGlite worker (pglite-thread.ts, pglite-worker.ts).

export type WorkerRequest =
  | {
      id: number;
      op: "query";
      sql: string;
      params: unknown[];
      rowMode: "array" | "object" | undefined;
      /** Type OIDs whose values stay the text PostgreSQL sent (drizzle's parsers). */
      textTypes: number[] | undefined;
      /** The open transaction to run in; none: its own statement, queued behind any transaction. */
      tx?: number;
    }
  | { id: number; op: "exec"; sql: string; tx?: number }
  | { id: number; op: "begin" }
  | { id: number; op: "end"; tx: number; commit: boolean }
  /** The whole data directory as a gzipped tarball (a backup), between statements. */
  | { id: number; op: "dumpDataDir" }
  | { id: number; op: "close" };

/** A request before the app numbers it. */
export type WorkerCall = WorkerRequest extends infer R
  ? R extends WorkerRequest
    ? Omit<R, "id">
    : never
  : never;

export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: SerializedError };

/** What the worker says unasked: it is open, or its maintenance failed. */
export type WorkerNotice = { notice: "ready" } | { notice: "error"; error: SerializedError };

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
