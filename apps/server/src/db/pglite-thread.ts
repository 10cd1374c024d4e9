import type { Worker } from "node:worker_threads";
import type { QueryOptions, Results } from "@electric-sql/pglite";
import { startModuleWorker } from "../lib/module-worker.ts";
import { connectWorkerRpc } from "../lib/worker-rpc.ts";
import { deserializeError, type SerializedError } from "../lib/worker-rpc-protocol.ts";
import { MAINTENANCE_FAILED, type PgliteMethods } from "./pglite-protocol.ts";

/** The part of PGlite drizzle's pglite driver and the migrator use, inside a transaction. */
export interface PgliteStatements {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Array<Results>>;
}

/** The embedded database, served by its own thread (pglite-worker.ts). */
export interface PgliteThread extends PgliteStatements {
  transaction<T>(callback: (tx: PgliteStatements) => Promise<T>): Promise<T>;
  /** The data directory as a gzipped tarball, taken between statements (PGlite's dumpDataDir). */
  dumpDataDir(): Promise<Uint8Array>;
  /** Statements sent to the thread and not answered yet (the metrics' database queue). */
  pendingCalls(): number;
  close(): Promise<void>;
}

/** The worker (pglite-worker.ts), from source or from the bundle (lib/module-worker.ts). */
function startWorker(workerData: {
  directory: string;
  template: string | undefined;
  maintenanceIntervalMs: number;
}): Worker {
  return startModuleWorker("pglite-worker", "db/pglite-worker", { workerData });
}

export interface PgliteThreadOptions {
  /** Where the thread's own trouble goes: a failed maintenance, the thread stopping. */
  onError?: (error: Error) => void;
  /** A data directory to copy first when `directory` is empty (db/start-from-template.ts). */
  template?: string;
  /** How often the thread runs VACUUM (ANALYZE) while the database is in use (5 min). */
  maintenanceIntervalMs?: number;
}

export const DEFAULT_MAINTENANCE_INTERVAL_MS = 5 * 60_000;

/**
 * Opens the PGlite data directory in a worker thread: its WASM runs there, so the app's event
 * loop keeps serving while a statement executes (docs/decisions/0014-pglite-worker.md).
 */
export async function openPgliteThread(
  directory: string,
  options: PgliteThreadOptions = {},
): Promise<PgliteThread> {
  const rpc = connectWorkerRpc<PgliteMethods>(
    startWorker({
      directory,
      template: options.template,
      maintenanceIntervalMs: options.maintenanceIntervalMs ?? DEFAULT_MAINTENANCE_INTERVAL_MS,
    }),
    {
      stopped: (cause) =>
        typeof cause === "number" ? new Error(`The database thread exited (${cause})`) : cause,
      onFailure: options.onError,
      onNotice(notice, data) {
        if (notice === MAINTENANCE_FAILED)
          options.onError?.(deserializeError(data as SerializedError));
      },
    },
  );
  await rpc.ready;
  const { call } = rpc;

  const statements = (tx?: number): PgliteStatements => ({
    query: (sql, params = [], options) =>
      call("query", {
        sql,
        params,
        rowMode: options?.rowMode,
        // drizzle passes identity parsers (keep the text) for the date and time types.
        textTypes: options?.parsers ? Object.keys(options.parsers).map(Number) : undefined,
        ...(tx === undefined ? {} : { tx }),
      }) as Promise<Results<never>>,
    exec: (sql) => call("exec", { sql, ...(tx === undefined ? {} : { tx }) }),
  });

  return {
    ...statements(),
    async transaction<T>(callback: (tx: PgliteStatements) => Promise<T>): Promise<T> {
      const tx = await call("begin", undefined);
      let result: T;
      try {
        result = await callback(statements(tx));
      } catch (error) {
        await call("end", { tx, commit: false }).catch(() => {});
        throw error;
      }
      await call("end", { tx, commit: true });
      return result;
    },
    dumpDataDir: () => call("dumpDataDir", undefined),
    pendingCalls: rpc.pendingCalls,
    close: () => rpc.close(() => call("close", undefined)),
  };
}
