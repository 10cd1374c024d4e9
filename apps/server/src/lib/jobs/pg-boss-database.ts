import type PgBoss from "pg-boss";
import type { DatabaseConnection } from "../../db/client.ts";

/**
 * pg-boss's bring-your-own database (docs/decisions/0072): it runs its SQL through the app's own
 * connection, so PGlite (one process, its own thread) and PostgreSQL (the app's pool) serve the
 * queue as they serve everything else, with no second driver or socket server.
 */
/**
 * The database pg-boss runs on, which also tells when its statements are done: pg-boss completes
 * or fails a polled job without awaiting it (pg-boss 10's Worker.onFetch), so a stop that closed
 * the database right after pg-boss's own stop left that statement to fail unhandled.
 */
export interface SettlingDb extends PgBoss.Db {
  /**
   * The queue is stopping: resolves once every statement pg-boss has sent is answered, and from
   * now on a failing statement answers no rows rather than rejecting.
   */
  settled(): Promise<void>;
}

/**
 * pg-boss's completion and failure of jobs (plans.completeJobs and plans.failJobs): the statements
 * its worker sends without awaiting them.
 */
const UNAWAITED_STATEMENT =
  /^\s*WITH (?:results AS \(\s*UPDATE|deleted_jobs AS \(\s*DELETE FROM) \S+\.job\b/;

/**
 * `onUnheard` is told of a completion or failure that failed (the database broke meanwhile):
 * nobody awaits it, and an unhandled rejection would stop the whole server.
 */
export function pgBossDatabase(
  connection: DatabaseConnection,
  onUnheard: (error: unknown) => void,
): SettlingDb {
  const run: PgBoss.Db["executeSql"] =
    connection.kind === "postgres"
      ? (text, values) => connection.pool.query(text, values)
      : async (text, values) => {
          const { client } = connection;
          if (values && values.length > 0) return client.query(text, values);
          // Without parameters pg-boss may send several statements (its schema, its migrations):
          // PGlite's exec runs them as one script; the last statement's rows are the answer.
          const results = await client.exec(text);
          return results.at(-1) ?? { rows: [] };
        };
  const inFlight = new Set<Promise<unknown>>();
  let stopping = false;
  return {
    executeSql(text, values) {
      // A completion or failure that fails (a broken connection; a closed database once the queue
      // stops, for a job that ran past the stop) answers "no job affected" (a command's answer as
      // pg-boss reads it) instead of failing with nobody to hear it. Such a job stays active; its
      // claim expires and pg-boss retries it, as after a crash.
      const statement =
        stopping || UNAWAITED_STATEMENT.test(text)
          ? run(text, values).catch((error: unknown) => {
              if (!stopping) onUnheard(error);
              return { rows: [{ count: 0 }] };
            })
          : run(text, values);
      const tracked = statement.catch(() => {});
      inFlight.add(tracked);
      void tracked.finally(() => inFlight.delete(tracked));
      return statement;
    },
    async settled() {
      stopping = true;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
