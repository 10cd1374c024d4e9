import type { SQL } from "drizzle-orm";
import type { Database } from "./client.ts";

/** The rows of a raw statement: both drivers answer `execute` with `{ rows }`. */
export async function rawRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A boolean column of a raw statement: true from either driver (PGlite; node-postgres, or "t"). */
export const isSqlTrue = (value: unknown): boolean => value === true || value === "t";
