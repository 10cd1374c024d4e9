import { sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { chatMessages, fanMemory } from "../../../db/schema/index.ts";
import { jsonOf, rowsOf } from "./rows.ts";

/**
 * Whether a summary refresh is due: memory on and at least `enough` of the fan's words
 * newer than the summary (counted no further than `enough`).
 */
export async function summaryDue(db: Database, userId: string, enough: number): Promise<boolean> {
  const result = await rowsOf<{ due: boolean }>(
    db,
    sql`
    with f as (select enabled, summarized_seq from ${fanMemory} where user_id = ${userId})
    select coalesce((select enabled from f), true) and (select count(*) from (
        select 1 from ${chatMessages} where user_id = ${userId}
          and sender = 'user' and not forgotten
          and seq > coalesce((select summarized_seq from f), 0)
        limit ${enough}) w) >= ${enough} as due`,
  );
  return result.rows[0]?.due === true;
}

/**
 * What a summary update reads: the switch, the summary, and the fan's words since the last
 * update (at most `limit`, the newest), oldest first.
 */
export async function summaryInput(db: Database, userId: string, limit: number) {
  const result = await rowsOf<{
    enabled: boolean | null;
    summary: string | null;
    seq: number | string | null;
    words: unknown;
    read: unknown;
  }>(
    db,
    sql`
    with f as (select enabled, summary, summarized_seq from ${fanMemory} where user_id = ${userId})
    select (select enabled from f) as enabled, (select summary from f) as summary,
      (select max(seq) from (select seq from ${chatMessages} where user_id = ${userId}
         and sender = 'user' and not forgotten
         and seq > coalesce((select summarized_seq from f), 0)
         order by seq desc limit ${limit}) s) as seq,
      (select coalesce(json_agg(w.content order by w.seq), '[]'::json) from (
         select seq, content from ${chatMessages} where user_id = ${userId}
         and sender = 'user' and not forgotten
         and seq > coalesce((select summarized_seq from f), 0)
         order by seq desc limit ${limit}) w) as words,
      (select coalesce(json_agg(r.seq), '[]'::json) from (
         select seq from ${chatMessages} where user_id = ${userId}
         and sender = 'user' and not forgotten
         and seq > coalesce((select summarized_seq from f), 0)
         order by seq desc limit ${limit}) r) as read`,
  );
  const row = result.rows[0];
  return {
    enabled: row?.enabled ?? true,
    summary: row?.summary ?? null,
    throughSeq: row?.seq === null || row?.seq === undefined ? null : Number(row.seq),
    words: (jsonOf(row?.words) ?? []) as string[],
    /** The seq of each message in `words`: the save is refused if one is forgotten since. */
    read: ((jsonOf(row?.read) ?? []) as (number | string)[]).map(Number),
  };
}

/**
 * Stores a new summary, unless a later one (or memory off) got there first, or one of the
 * messages it was written from (`read`, their seq) was forgotten while it was written.
 */
export async function saveSummary(
  db: Database,
  userId: string,
  summary: string,
  throughSeq: number,
  read: number[],
): Promise<void> {
  const forgottenSince = sql`exists (select 1 from ${chatMessages}
    where user_id = ${userId} and forgotten
      and seq = any(array[${sql.join(
        [throughSeq, ...read].map((seq) => sql`${seq}`),
        sql`, `,
      )}]::bigint[]))`;
  await rowsOf(
    db,
    sql`
    insert into ${fanMemory} (user_id, summary, summary_updated_at, summarized_seq)
    select ${userId}::uuid, ${summary}::text, clock_timestamp(), ${throughSeq}::bigint
    where not ${forgottenSince}
    on conflict (user_id) do update set summary = excluded.summary,
      summary_updated_at = excluded.summary_updated_at, summarized_seq = excluded.summarized_seq
    where ${fanMemory}.summarized_seq < excluded.summarized_seq and ${fanMemory}.enabled`,
  );
}
