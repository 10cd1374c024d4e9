import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable, SelectedFields } from "drizzle-orm/pg-core";
import type { Database } from "../../db/client.ts";

/**
 * Rows read per query: a fan with 100,000 messages is read a page at a time, never at once, and
 * each page goes to the ZIP as one piece of text (bench/export).
 */
export const EXPORT_PAGE_SIZE = 1000;

/** Where a kind writes its file's text, a piece at a time (the ZIP compresses as it goes). */
export interface ExportOutput {
  write(text: string): Promise<void>;
}

export interface ExportContext {
  db: Database;
  userId: string;
}

/**
 * One file of the export (issue 26, decision 0062). A new kind of data is one more entry in
 * EXPORT_KINDS: its file, what the README says of it and of each field, and how it is written.
 */
export interface ExportKind {
  file: string;
  title: string;
  fields: Record<string, string>;
  write(out: ExportOutput, context: ExportContext): Promise<void>;
}

export const iso = (date: Date | null | undefined): string | null =>
  date ? date.toISOString() : null;

/**
 * Writes a JSON array, one element a line, a page of elements at a time: each page is one piece
 * of text (one push to the ZIP's compressor), `map` turning a page of rows into its elements.
 */
export async function writeArray<T>(
  out: ExportOutput,
  pages: AsyncIterable<T[]> | Iterable<T[]>,
  map: (rows: T[]) => Promise<unknown[]> | unknown[] = (rows) => rows,
): Promise<void> {
  let first = true;
  await out.write("[");
  for await (const rows of pages) {
    const elements = await map(rows);
    if (elements.length === 0) continue;
    const text = elements.map((element) => JSON.stringify(element)).join(",\n  ");
    await out.write(`${first ? "\n  " : ",\n  "}${text}`);
    first = false;
  }
  await out.write(first ? "]\n" : "\n]\n");
}

/** A row of a keyset-paged read: its key as the database holds it (see `keysetRead`). */
interface Keyed {
  keyTime: string;
  keyTie: string;
}

/**
 * One user's rows of `table` in (time, tie) order, EXPORT_PAGE_SIZE at a time, each page read on
 * the (user, time, tie) index after the last row of the one before. The key is read as text
 * beside the row's fields and compared as such: the database's microseconds, where a JS Date
 * has only milliseconds and rows of one millisecond would be read twice. The next page is
 * asked for while the one just read is written, so the database and the compression overlap.
 */
export async function* keysetRead<F extends SelectedFields>(
  db: Database,
  read: {
    table: PgTable;
    fields: F;
    user: AnyPgColumn;
    userId: string;
    time: AnyPgColumn;
    tie: AnyPgColumn;
    only?: SQL;
  },
) {
  const { table, time, tie } = read;
  // Promise.resolve: a real promise, run once (a Drizzle query runs again at each `then`).
  const page = (after: Keyed | undefined) =>
    Promise.resolve(
      db
        .select({
          ...read.fields,
          keyTime: sql<string>`${time}::text`,
          keyTie: sql<string>`${tie}::text`,
        })
        .from(table)
        .where(
          and(
            eq(read.user, read.userId),
            read.only,
            after
              ? sql`(${time}, ${tie}) > (${after.keyTime}::timestamptz, ${after.keyTie})`
              : undefined,
          ),
        )
        .orderBy(asc(time), asc(tie))
        .limit(EXPORT_PAGE_SIZE),
    );
  let next = page(undefined);
  for (;;) {
    const rows = await next;
    const full = rows.length === EXPORT_PAGE_SIZE;
    if (full) {
      next = page(rows.at(-1));
      // Awaited on the next turn; a write failing before then must not leave it unhandled.
      next.catch(() => undefined);
    }
    if (rows.length > 0) yield rows;
    if (!full) return;
  }
}

/** `items` grouped by `key`, in their order (a page's transcripts by call, refunds by payment). */
export function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
