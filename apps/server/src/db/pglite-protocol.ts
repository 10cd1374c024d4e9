// The methods the PGlite worker serves to the app (pglite-worker.ts, pglite-thread.ts), over
// lib/worker-rpc.ts.
import type { Results } from "@electric-sql/pglite";
import type { Transferred } from "../lib/worker-rpc-protocol.ts";

export type QueryRequest = {
  sql: string;
  params: unknown[];
  rowMode: "array" | "object" | undefined;
  /** Type OIDs whose values stay the text PostgreSQL sent (drizzle's parsers). */
  textTypes: number[] | undefined;
  /** The open transaction to run in; none: its own statement, queued behind any transaction. */
  tx?: number;
};

export type PgliteMethods = {
  query(request: QueryRequest): Promise<Results<unknown>>;
  exec(request: { sql: string; tx?: number }): Promise<Array<Results>>;
  /** Opens a transaction: its number, once PGlite holds it for this caller. */
  begin(request: undefined): Promise<number>;
  end(request: { tx: number; commit: boolean }): Promise<void>;
  /** The whole data directory as a gzipped tarball (a backup), between statements. */
  dumpDataDir(request: undefined): Promise<Transferred<Uint8Array>>;
  close(request: undefined): Promise<void>;
};

/** The notice the worker sends when its maintenance fails (a SerializedError with it). */
export const MAINTENANCE_FAILED = "maintenance-failed";
