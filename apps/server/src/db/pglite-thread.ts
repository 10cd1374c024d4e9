import type { Worker } from "node:worker_threads";
import type { QueryOptions, Results } from "@electric-sql/pglite";
import { startModuleWorker } from "../lib/module-worker.ts";
import {
  deserializeError,
  type WorkerCall,
  type WorkerNotice,
  type WorkerReply,
  type WorkerRequest,
} from "./pglite-protocol.ts";

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
function startWorker(workerData: { directory: string; maintenanceIntervalMs: number }): Worker {
  return startModuleWorker("pglite-worker", "db/pglite-worker", { workerData });
}

export interface PgliteThreadOptions {
  /** Where the thread's own trouble goes: a failed maintenance, the thread stopping. */
  onError?: (error: Error) => void;
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
  const worker = startWorker({
    directory,
    maintenanceIntervalMs: options.maintenanceIntervalMs ?? DEFAULT_MAINTENANCE_INTERVAL_MS,
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let failure: Error | undefined;
  let closing: Promise<void> | undefined;

  const failAll = (error: Error) => {
    if (!failure && !closing) options.onError?.(error);
    failure ??= error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    const onExit = (code: number) => reject(new Error(`The database thread exited (${code})`));
    worker.once("error", onError);
    worker.once("exit", onExit);
    worker.once("message", () => {
      worker.off("error", onError);
      worker.off("exit", onExit);
      resolve();
    });
  });

  worker.on("message", (reply: WorkerReply | WorkerNotice) => {
    if ("notice" in reply) {
      if (reply.notice === "error") options.onError?.(deserializeError(reply.error));
      return;
    }
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    if (reply.ok) call.resolve(reply.result);
    else call.reject(deserializeError(reply.error));
  });
  worker.on("error", failAll);
  worker.on("exit", (code) => failAll(new Error(`The database thread exited (${code})`)));

  const call = <T>(request: WorkerCall): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id } as WorkerRequest);
    });
  };

  const statements = (tx?: number): PgliteStatements => ({
    query: (sql, params = [], options) =>
      call({
        op: "query",
        sql,
        params,
        rowMode: options?.rowMode,
        // drizzle passes identity parsers (keep the text) for the date and time types.
        textTypes: options?.parsers ? Object.keys(options.parsers).map(Number) : undefined,
        ...(tx === undefined ? {} : { tx }),
      }),
    exec: (sql) => call({ op: "exec", sql, ...(tx === undefined ? {} : { tx }) }),
  });

  return {
    ...statements(),
    async transaction<T>(callback: (tx: PgliteStatements) => Promise<T>): Promise<T> {
      const tx = await call<number>({ op: "begin" });
      let result: T;
      try {
        result = await callback(statements(tx));
      } catch (error) {
        await call({ op: "end", tx, commit: false }).catch(() => {});
        throw error;
      }
      await call({ op: "end", tx, commit: true });
      return result;
    },
    dumpDataDir: () => call<Uint8Array>({ op: "dumpDataDir" }),
    pendingCalls: () => pending.size,
    close() {
      closing ??= call({ op: "close" })
        .catch(() => {})
        .then(async () => {
          await worker.terminate();
        });
      return closing;
    },
  };
}
