import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { DatabaseConnection, Schema } from "./client.ts";

/**
 * The generated SQL migrations. From source (tsx, vitest) this file sits in src/db beside the
 * migrations folder; in the bundle it is dist/main.js and build.mjs copies the folder to
 * dist/migrations. Either way the folder is `./migrations` next to the running module.
 */
export function migrationsFolder(): string {
  const folder = fileURLToPath(new URL("./migrations", import.meta.url));
  if (!existsSync(folder)) throw new Error(`Database migrations not found in ${folder}`);
  return folder;
}

// Any constant works; it only has to be the same for every instance of this app.
const MIGRATION_LOCK_ID = 7_294_001;

/** Applies every pending migration. Safe when several instances boot at once on one PostgreSQL. */
export async function applyMigrations(connection: DatabaseConnection): Promise<void> {
  const config = { migrationsFolder: migrationsFolder() };
  if (connection.kind === "pglite") {
    await migratePglite(connection.db as PgliteDatabase<Schema>, config);
    return;
  }
  // An advisory lock is held by a session, so lock, migrate and unlock on one pooled client.
  const client = await connection.pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    try {
      const db: NodePgDatabase<Schema> = drizzleNodePg({ client });
      await migrateNodePg(db, config);
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]);
    }
  } finally {
    client.release();
  }
}
