import type { Tracing } from "../observability/observability.ts";
import type { Database, DatabaseKind } from "./client.ts";

/**
 * Every transaction of the app (each repository's `db.transaction`) as a span, child of the
 * request's: done here, on the one Database object every repository shares, so it works alike
 * for PGlite (a worker thread no auto-instrumentation sees) and PostgreSQL. Only with tracing on.
 */
export function traceTransactions(db: Database, kind: DatabaseKind, tracing: Tracing): void {
  const transaction = db.transaction.bind(db);
  const system = kind === "pglite" ? "pglite" : "postgresql";
  db.transaction = ((...args: Parameters<Database["transaction"]>) => {
    const span = tracing.startSpan("db.transaction", { "db.system.name": system });
    return span
      .run(() => transaction(...args))
      .then(
        (result) => {
          span.end();
          return result;
        },
        (error: unknown) => {
          span.end(error);
          throw error;
        },
      );
  }) as Database["transaction"];
}
