import type PgBoss from "pg-boss";
import type { DatabaseConnection } from "../../db/client.ts";

/**
 * pg-boss's bring-your-own database (docs/decisions/0072): it runs its SQL through the app's own
 * connection, so PGlite (one process, its own thread) and PostgreSQL (the app's pool) serve the
 * queue as they serve everything else, with no second driver or socket server.
 */
export function pgBossDatabase(connection: DatabaseConnection): PgBoss.Db {
  if (connection.kind === "postgres") {
    return { executeSql: (text, values) => connection.pool.query(text, values) };
  }
  const { client } = connection;
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) return client.query(text, values);
      // Without parameters pg-boss may send several statements (its schema, its migrations):
      // PGlite's exec runs them as one script; the last statement's rows are the answer.
      const results = await client.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
  };
}
