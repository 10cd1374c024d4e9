import type { SQL } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";

/** The rows of a raw statement (both drivers answer raw statements with { rows }). */
export async function rowsOf<T>(db: Database, query: SQL): Promise<{ rows: T[] }> {
  return (await db.execute(query)) as unknown as { rows: T[] };
}

/** A json column's value: one driver answers it parsed, the other as its text. */
export function jsonOf(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}
