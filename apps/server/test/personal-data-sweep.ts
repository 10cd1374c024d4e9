import { sql } from "drizzle-orm";
import type { TestApp } from "./create-test-app.ts";

/** Where a value was found: table, column, how many rows. */
export interface Finding {
  table: string;
  column: string;
  rows: number;
}

/** Column types whose text can hold an id, an e-mail or words. */
const SEARCHED_TYPES = [
  "text",
  "character varying",
  "uuid",
  "jsonb",
  "json",
  "tsvector",
  "USER-DEFINED",
  "ARRAY",
];

/**
 * Every column of every table of the public schema, read from information_schema (so a table
 * added later is swept too), searched for each needle as text, case-insensitively.
 */
export async function sweepEveryTable(t: TestApp, needles: string[]): Promise<Finding[]> {
  const db = t.app.database.db;
  const columns = (await db.execute(sql`
    select c.table_name, c.column_name
    from information_schema.columns c
    join information_schema.tables tb
      on tb.table_schema = c.table_schema and tb.table_name = c.table_name
    where c.table_schema = 'public' and tb.table_type = 'BASE TABLE'
      and c.data_type in (${sql.join(
        SEARCHED_TYPES.map((type) => sql`${type}`),
        sql`, `,
      )})
    order by c.table_name, c.column_name
  `)) as unknown as { rows: { table_name: string; column_name: string }[] };
  const findings: Finding[] = [];
  for (const { table_name: table, column_name: column } of rowsOf(columns)) {
    for (const needle of needles) {
      const found = await db.execute(
        sql`select count(*)::int as n from ${sql.identifier(table)} where position(lower(${needle}) in lower(${sql.identifier(column)}::text)) > 0`,
      );
      const n = rowsOf(found as unknown as { rows: { n: number }[] })[0]?.n ?? 0;
      if (n > 0) findings.push({ table, column: `${column} ∋ ${needle}`, rows: n });
    }
  }
  return findings;
}

/** How many tables the sweep read (to show it read them all). */
export async function countTables(t: TestApp): Promise<number> {
  const result = await t.app.database.db.execute(
    sql`select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  return rowsOf(result as unknown as { rows: { n: number }[] })[0]?.n ?? 0;
}

function rowsOf<T>(result: { rows: T[] } | T[]): T[] {
  return Array.isArray(result) ? result : result.rows;
}
