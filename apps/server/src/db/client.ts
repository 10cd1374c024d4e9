import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;

/** One type for both drivers: repositories never know which PostgreSQL they talk to. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseKind = "pglite" | "postgres";

export type DatabaseConnection =
  | { kind: "pglite"; db: Database; client: PGlite; close(): Promise<void> }
  | {
      kind: "postgres";
      db: Database;
      pool: pg.Pool;
      connectionString: string;
      close(): Promise<void>;
    };

export interface OpenDatabaseOptions {
  /** A postgres:// URL; unset opens the embedded PGlite under `${dataDir}/pglite`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Where a pool reports a broken idle connection (it must not crash the process). */
  onPoolError?: (error: Error) => void;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseConnection> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // A database that does not answer must fail a request, not hang it.
      connectionTimeoutMillis: 5_000,
    });
    pool.on("error", (error) => options.onPoolError?.(error));
    const db: Database = drizzleNodePg({ client: pool, schema });
    return {
      kind: "postgres",
      db,
      pool,
      connectionString: options.databaseUrl,
      close: once(() => pool.end()),
    };
  }

  const directory = join(options.dataDir, "pglite");
  mkdirSync(directory, { recursive: true });
  // pg_trgm serves the admin's user search (migration 0001 creates the extension).
  const client = await PGlite.create(directory, { extensions: { pg_trgm } });
  const db: Database = drizzlePglite({ client, schema });
  return { kind: "pglite", db, client, close: once(() => client.close()) };
}

// Closing twice (a failed boot, then the app's onClose) must not throw.
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= close();
    return closing;
  };
}

/** `select 1`: the health check's question to the database. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}
