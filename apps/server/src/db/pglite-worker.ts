// The embedded PostgreSQL's own thread (docs/decisions/0014-pglite-worker.md): PGlite runs its
// WASM synchronously, so on the app's thread every statement would stall every request. Here it
// answers pglite-thread.ts's messages, one statement at a time as PGlite always does, and keeps
// the database in shape as autovacuum would.

import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type QueryOptions, type Transaction } from "@electric-sql/pglite";
import { PGLITE_EXTENSIONS } from "./pglite-extensions.ts";
import { createPreparedQueries } from "./pglite-prepared.ts";
import {
  serializeError,
  type WorkerNotice,
  type WorkerReply,
  type WorkerRequest,
} from "./pglite-protocol.ts";

interface OpenTransaction {
  tx: Transaction;
  /** Ends the transaction's callback: true commits, false rolls back. */
  finish(commit: boolean): void;
  /** Settles when PGlite has committed or rolled back. */
  done: Promise<unknown>;
}

const port = parentPort;
if (!port) throw new Error("pglite-worker.ts runs as a worker thread");

const { directory, maintenanceIntervalMs } = workerData as {
  directory: string;
  maintenanceIntervalMs: number;
};
const db = await PGlite.create(directory, { extensions: PGLITE_EXTENSIONS });
const prepared = createPreparedQueries(db);
const transactions = new Map<number, OpenTransaction>();
let nextTransaction = 1;

const send = (reply: WorkerReply | WorkerNotice) => port.postMessage(reply);
/** Answers request `id` with what `work` gives, or with its error (a result that cannot cross too). */
async function answer(id: number, work: () => Promise<unknown>) {
  try {
    send({ id, ok: true, result: await work() });
  } catch (error) {
    send({ id, ok: false, error: serializeError(error) });
  }
}

/** The transaction a statement names, or the database itself. */
function target(tx: number | undefined): PGlite | Transaction {
  if (tx === undefined) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error(`No open transaction ${tx}`);
  return open.tx;
}

/** The value as PostgreSQL sent it, for each of `types` (drizzle maps those itself). */
function textParsers(types: number[] | undefined): QueryOptions["parsers"] {
  if (!types) return undefined;
  return Object.fromEntries(types.map((type) => [type, (value: string) => value]));
}

/** Opens a transaction and answers its number once PGlite holds it for this caller. */
function begin(id: number) {
  const tx = nextTransaction++;
  let opened = false;
  let finish: (commit: boolean) => void = () => {};
  const ended = new Promise<boolean>((resolve) => {
    finish = resolve;
  });
  const done = db.transaction(async (transaction) => {
    transactions.set(tx, { tx: transaction, finish, done });
    opened = true;
    send({ id, ok: true, result: tx });
    if (!(await ended)) await transaction.rollback();
  });
  done
    .catch((error: unknown) => {
      if (!opened) send({ id, ok: false, error: serializeError(error) });
    })
    .finally(() => transactions.delete(tx));
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
    send({ notice: "error", error: serializeError(error) }),
  );
}, maintenanceIntervalMs).unref();

port.on("message", (request: WorkerRequest) => {
  usedSinceMaintenance ||= request.op === "query" || request.op === "exec";
  switch (request.op) {
    case "query": {
      const options: QueryOptions = {};
      if (request.rowMode) options.rowMode = request.rowMode;
      const parsers = textParsers(request.textTypes);
      if (parsers) options.parsers = parsers;
      answer(request.id, () => {
        // Checked first: a statement of a transaction already ended is refused, as PGlite does.
        if (request.tx !== undefined) target(request.tx);
        return prepared.query(request.sql, request.params, options, request.tx !== undefined);
      });
      return;
    }
    case "exec":
      answer(request.id, () => target(request.tx).exec(request.sql));
      return;
    case "begin":
      begin(request.id);
      return;
    case "end":
      answer(request.id, () => end(request.tx, request.commit));
      return;
    case "dumpDataDir":
      answer(request.id, async () => {
        const tarball = await db.dumpDataDir("gzip");
        return new Uint8Array(await tarball.arrayBuffer());
      });
      return;
    case "close":
      clearInterval(maintenance);
      answer(request.id, () => db.close());
      return;
  }
});

send({ notice: "ready" });
