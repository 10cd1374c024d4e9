import { sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { chatMessages, fanMemory } from "../../../db/schema/index.ts";
import { wordsOf } from "../../ai-training/retrieval.ts";
import { jsonOf, rowsOf } from "./rows.ts";

/** What a reply is given of the fan's memory. */
export interface Recall {
  /** The running summary (memory on only). */
  summary: string | null;
  /** The fan's own earlier words that best match the new message, best first. */
  recalled: string[];
}

/** The row the recall statement answers: memory's switch and summary, the recalled words. */
export interface RecallRow {
  enabled: boolean | null;
  summary: string | null;
  recalled: unknown;
}

/**
 * Words in more than this share of all messages (the planner's statistics of the tsv column,
 * refreshed by ANALYZE) say nothing about what a fan told: they are left out of the search.
 */
export const COMMON_WORD_SHARE = 0.01;
/**
 * At most this many of the fan's messages are ranked for each word of the new message (a bound
 * on the cost: 32 words at most). Per word, so that a word found in hundreds of the fan's
 * messages cannot crowd out the few holding a rare one (issue 24: with one cap for all, the
 * planted passages of bench/chat phase 3 were missed a third of the time).
 */
export const CANDIDATES_PER_WORD = 32;

/**
 * Long-term recall for a new message, in one statement: the fan's summary and their own
 * earlier words (chat messages and call turns) that match any of the message's words,
 * common words left out, by PostgreSQL full-text search over the GIN index of
 * (user_id, tsv) (migration 0015), ranked by ts_rank_cd among at most CANDIDATES_PER_WORD per word. Only this fan's words,
 * never forgotten ones, never those in `exclude` (the history the prompt already has, the
 * new message itself). Memory off: nothing.
 */
export async function recall(
  db: Database,
  userId: string,
  message: string,
  exclude: string[],
  limit: number,
): Promise<Recall> {
  const excluded =
    exclude.length > 0
      ? sql`and not (m.id = any(array[${sql.join(
          exclude.map((id) => sql`${id}`),
          sql`, `,
        )}]::uuid[]))`
      : sql``;
  const search =
    wordsOf(message).length > 0 && limit > 0
      ? sql`(select coalesce(json_agg(r.content), '[]'::json) from (
          select c.content from (
            select distinct on (m.id) m.id, m.content, m.tsv, m.created_at
            from lexemes l cross join lateral (
              select m.id, m.content, m.tsv, m.created_at from ${chatMessages} m
              where m.user_id = ${userId} and m.sender = 'user' and not m.forgotten
                and m.tsv @@ to_tsquery('simple', quote_literal(l.lexeme)) ${excluded}
              limit ${CANDIDATES_PER_WORD}) m) c, q
          order by ts_rank_cd(c.tsv, q.query) desc, c.created_at desc
          limit ${limit}) r)`
      : sql`'[]'::json`;
  const result = await rowsOf<RecallRow>(
    db,
    sql`
    with f as (select enabled, summary from ${fanMemory} where user_id = ${userId}),
    common as (
      -- The words of more than COMMON_WORD_SHARE of all messages, by the planner's
      -- statistics (migration 0024: a function, so pg_stats is not planned per message).
      select unnest(recall_common_words(${COMMON_WORD_SHARE}::real)) as lexeme
    ),
    lexemes as (
      select w.lexeme
      from unnest(tsvector_to_array(to_tsvector('english', ${message}))) as w(lexeme)
      where not exists (select 1 from common c where c.lexeme = w.lexeme)
      limit 32
    ),
    q as (
      select to_tsquery('simple', coalesce(string_agg(quote_literal(lexeme), ' | '), '')) as query
      from lexemes
    )
    select (select enabled from f) as enabled, (select summary from f) as summary,
      case when coalesce((select enabled from f), true) then ${search} else '[]'::json end
        as recalled`,
  );
  return recallOf(result.rows[0]);
}

/**
 * What a reply is given of the recall statement's row: nothing while the fan has memory off;
 * a fan who never touched the switch has it on.
 */
export function recallOf(row: RecallRow | undefined): Recall {
  if (!row || row.enabled === false) return { summary: null, recalled: [] };
  return { summary: row.summary ?? null, recalled: (jsonOf(row.recalled) ?? []) as string[] };
}
