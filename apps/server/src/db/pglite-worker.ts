// The embedded PostgreSQL's own thread (docs/decisions/0014-pglite-worker.md): PGlite runs its
// WASM synchronously, so on the app's thread every statement would stall every request. Here it
// serves pglite-thread.ts's calls (lib/worker-rpc-serve.ts), one statement at a time as PGlite
// always does, and keeps the database in shape as autovacuum would.

import { workerData } from "node:worker_threads";
import { PGlite, type QueryOptions, type Transaction } from "@electric-sql/pglite";
import { serializeError, Transferred } from "../lib/worker-rpc-protocol.ts";
import { serveWorkerRpc } from "../lib/worker-rpc-serve.ts";
import { PGLITE_EXTENSIONS } from "./pglite-extensions.ts";
import { createPreparedQueries } from "./pglite-prepared.ts";
import { MAINTENANCE_FAILED, type PgliteMethods } from "./pglite-protocol.ts";
import { startFromTemplate } from "./start-from-template.ts";

interface OpenTransaction {
  tx: Transaction;
  /** Ends the transaction's callback: true commits, false rolls back. */
  finish(commit: boolean): void;
  /** Settles when PGlite has committed or rolled back. */
  done: Promise<unknown>;
}

const { directory, template, maintenanceIntervalMs } = workerData as {
  directory: string;
  template: string | undefined;
  maintenanceIntervalMs: number;
};
startFromTemplate(directory, template);
const db = await PGlite.create(directory, { extensions: PGLITE_EXTENSIONS });
const prepared = createPreparedQueries(db);
const transactions = new Map<number, OpenTransaction>();
let nextTransaction = 1;

/** The transaction a statement names, or the database itself. */
function target(tx: number | undefined): PGlite | Transaction {
  if (tx === undefined) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error(`No open transaction ${tx}`);
  return open.tx;
}

const keepText = (value: string) => value;
const textParsersByTypes = new Map<string, NonNullable<QueryOptions["parsers"]>>();
/**
 * The value as PostgreSQL sent it, for each of `types` (drizzle maps those itself). One object
 * per set of types: pglite-prepared.ts merges each with PGlite's parsers once.
 */
function textParsers(types: number[] | undefined): QueryOptions["parsers"] {
  if (!types) return undefined;
  const key = types.join(",");
  let parsers = textParsersByTypes.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(types.map((type) => [type, keepText]));
    textParsersByTypes.set(key, parsers);
  }
  return parsers;
}

/** Opens a transaction; settles with its number once PGlite holds it for this caller. */
function begin(): Promise<number> {
  return new Promise((opened, failed) => {
    const tx = nextTransaction++;
    let finish: (commit: boolean) => void = () => {};
    const ended = new Promise<boolean>((resolve) => {
      finish = resolve;
    });
    const done = db.transaction(async (transaction) => {
      transactions.set(tx, { tx: transaction, finish, done });
      opened(tx);
      if (!(await ended)) await transaction.rollback();
    });
    // Before it opened: the caller's error. After: end()'s, which awaits `done`.
    done.catch(failed).finally(() => transactions.delete(tx));
  });
}

async function end(tx: number, commit: boolean) {
  const open = transactions.get(tx);
  if (!open) throw new Error(`No open transaction ${tx}`);
  open.finish(commit);
  await open.done;
}

// PGlite runs no autovacuum: without this, the planner's statistics would stay those of an empty
// database (a conversation's history read in full instead of its newest rows) and dead rows
// would pile up. While the database is in use, VACUUM (ANALYZE) now and then, as autovacuum would.
let usedSinceMaintenance = false;
const maintenance = setInterval(() => {
  if (!usedSinceMaintenance) return;
  usedSinceMaintenance = false;
  db.exec("vacuum (analyze)").catch((error: unknown) =>
    server.notify(MAINTENANCE_FAILED, serializeError(error)),
  );
}, maintenanceIntervalMs).unref();

// Plain functions, not async ones: a statement's promise goes straight back, with no extra
// promise hop on the path every statement takes (a thrown error is answered the same way).
const server = serveWorkerRpc<PgliteMethods>({
  query(request) {
    usedSinceMaintenance = true;
    const options: QueryOptions = {};
    if (request.rowMode) options.rowMode = request.rowMode;
    const parsers = textParsers(request.textTypes);
    if (parsers) options.parsers = parsers;
    // Checked first: a statement of a transaction already ended is refused, as PGlite does.
    if (request.tx !== undefined) target(request.tx);
    return prepared.query(request.sql, request.params, options, request.tx !== undefined);
  },
  exec(request) {
    usedSinceMaintenance = true;
    return target(request.tx).exec(request.sql);
  },
  begin,
  end: ({ tx, commit }) => end(tx, commit),
  async dumpDataDir() {
    const tarball = await db.dumpDataDir("gzip");
    const bytes = new Uint8Array(await tarball.arrayBuffer());
    // Moved, not copied: a backup of the whole database.
    return new Transferred(bytes, [bytes.buffer]);
  },
  close() {
    clearInterval(maintenance);
    return db.close();
  },
});
