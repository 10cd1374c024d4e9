import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { openEmbeddedDatabase } from "./embedded.ts";
import { NamedStatementsClient } from "./named-statements-client.ts";
import { type NotificationHub, openNotificationHub } from "./notifications.ts";
import type { PgliteThread } from "./pglite-thread.ts";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;

/** One type for both drivers: repositories never know which PostgreSQL they talk to. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseKind = "pglite" | "postgres";

export type DatabaseConnection =
  | { kind: "pglite"; db: Database; client: PgliteThread; close(): Promise<void> }
  | {
      kind: "postgres";
      db: Database;
      pool: pg.Pool;
      /**
       * The process's one LISTEN connection, shared by every channel (opened on first use,
       * closed with the database).
       */
      notifications(): Promise<NotificationHub>;
      close(): Promise<void>;
    };

export interface OpenDatabaseOptions {
  /** A postgres:// URL; unset opens the embedded PGlite under `${dataDir}/pglite`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /**
   * Where an error outside any request goes (it must not crash the process): a pooled idle
   * connection or the LISTEN connection broke, PGlite's maintenance failed, or its thread stopped.
   */
  onBackgroundError?: (error: Error) => void;
  /** The embedded database's thread, already opening (main.ts): used instead of opening one. */
  embedded?: Promise<PgliteThread>;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseConnection> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      // Each parameterized statement parsed once per connection (decision 0090).
      Client: NamedStatementsClient,
      max: 10,
      // A database that does not answer must fail a request, not hang it.
      connectionTimeoutMillis: 5_000,
    });
    pool.on("error", (error) => options.onBackgroundError?.(error));
    const db: Database = drizzleNodePg({ client: pool, schema });
    const connectionString = options.databaseUrl;
    let hub: Promise<NotificationHub> | undefined;
    const notifications = () => {
      hub ??= openNotificationHub({
        connectionString,
        onError: (error) => options.onBackgroundError?.(error),
      }).catch((error: unknown) => {
        // The next caller tries again.
        hub = undefined;
        throw error;
      });
      return hub;
    };
    return {
      kind: "postgres",
      db,
      pool,
      notifications,
      close: once(async () => {
        const opened = await hub?.catch(() => undefined);
        await opened?.close();
        await pool.end();
      }),
    };
  }

  const client = await (options.embedded ??
    openEmbeddedDatabase(
      options.dataDir,
      options.onBackgroundError ? { onError: options.onBackgroundError } : {},
    ));
  // drizzle's pglite driver calls only what PgliteThread answers: query, exec, transaction.
  const db: Database = drizzlePglite({ client: client as unknown as PGlite, schema });
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
