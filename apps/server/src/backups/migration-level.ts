import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { migrationsFolder } from "../db/migrate.ts";
import { rawRows } from "../db/raw-rows.ts";

interface JournalEntry {
  when: number;
  tag: string;
}

/** The migrations this build knows, oldest first (drizzle's journal). */
export function knownMigrations(): JournalEntry[] {
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder(), "meta", "_journal.json"), "utf8"),
  ) as { entries: JournalEntry[] };
  return journal.entries;
}

/** The tag of the newest migration applied to the database (drizzle logs each by its `when`). */
export async function appliedMigration(db: Database): Promise<string | null> {
  const [row] = await rawRows<{ newest: string | null }>(
    db,
    sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`,
  );
  const newest = row?.newest;
  if (newest === null || newest === undefined) return null;
  return (
    knownMigrations().find((entry) => String(entry.when) === newest)?.tag ?? `unknown:${newest}`
  );
}
