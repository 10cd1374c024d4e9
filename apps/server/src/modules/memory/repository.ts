import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { chatMessages, fanMemory } from "../../db/schema/index.ts";
import { wordsOf } from "../ai-training/retrieval.ts";

/** What a reply is given of the fan's memory. */
export interface Recall {
  /** The running summary (memory on only). */
  summary: string | null;
  /** The fan's own earlier words that best match the new message, best first. */
  recalled: string[];
}

/** One thing the fan told, as the memory screen lists it. */
export interface RememberedRow {
  id: string;
  content: string;
  createdAt: Date;
  callId: string | null;
}

export interface MemoryView {
  enabled: boolean;
  summary: string | null;
  summaryUpdatedAt: Date | null;
  facts: RememberedRow[];
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

/** At most this many remembered facts are listed (the newest). */
export const FACTS_LIMIT = 100;

export function createMemoryRepository(db: Database) {
  // Both drivers answer raw statements with { rows }.
  const run = async <T>(query: SQL) => (await db.execute(query)) as unknown as { rows: T[] };

  return {
    /**
     * Long-term recall for a new message, in one statement: the fan's summary and their own
     * earlier words (chat messages and call turns) that match any of the message's words,
     * common words left out, by PostgreSQL full-text search over the GIN index of
     * (user_id, tsv) (migration 0015), ranked by ts_rank_cd among at most CANDIDATES_PER_WORD per word. Only this fan's words,
     * never forgotten ones, never those in `exclude` (the history the prompt already has, the
     * new message itself). Memory off: nothing.
     */
    async recall(
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
      const result = await run<{
        enabled: boolean | null;
        summary: string | null;
        recalled: unknown;
      }>(sql`
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
            as recalled`);
      const row = result.rows[0];
      if (!row || row.enabled === false) return { summary: null, recalled: [] };
      const raw = typeof row.recalled === "string" ? JSON.parse(row.recalled) : row.recalled;
      return { summary: row.summary ?? null, recalled: (raw ?? []) as string[] };
    },

    /** The fan's memory screen: the switch, the summary, the newest remembered facts. */
    async view(userId: string): Promise<MemoryView> {
      const [[memory], facts] = await Promise.all([
        db.select().from(fanMemory).where(eq(fanMemory.userId, userId)),
        db
          .select({
            id: chatMessages.id,
            content: chatMessages.content,
            createdAt: chatMessages.createdAt,
            callId: chatMessages.callId,
          })
          .from(chatMessages)
          .where(
            and(
              eq(chatMessages.userId, userId),
              sql`${chatMessages.remembered} and not ${chatMessages.forgotten}`,
            ),
          )
          .orderBy(desc(chatMessages.createdAt))
          .limit(FACTS_LIMIT),
      ]);
      return {
        enabled: memory?.enabled ?? true,
        summary: memory?.summary ?? null,
        summaryUpdatedAt: memory?.summaryUpdatedAt ?? null,
        facts,
      };
    },

    async setEnabled(userId: string, enabled: boolean): Promise<void> {
      await db
        .insert(fanMemory)
        .values({ userId, enabled })
        .onConflictDoUpdate({ target: fanMemory.userId, set: { enabled } });
    },

    /** The summary goes; what it had read is not read again (summarized_seq stays). */
    async deleteSummary(userId: string): Promise<void> {
      await db
        .update(fanMemory)
        .set({ summary: null, summaryUpdatedAt: null })
        .where(eq(fanMemory.userId, userId));
    },

    /**
     * One of the fan's own messages is forgotten: never in a prompt again. A summary written
     * after reading it (summarized_seq at or past it) carries it too, so it goes in the same
     * statement (as DELETE /summary: summarized_seq stays, the next summary reads only newer
     * words). False: not theirs.
     */
    async forget(userId: string, messageId: string): Promise<boolean> {
      const result = await run<{ id: string }>(sql`
        with m as (
          update ${chatMessages} set forgotten = true
          where id = ${messageId} and user_id = ${userId} and sender = 'user'
          returning id, seq
        ),
        summary as (
          update ${fanMemory} set summary = null, summary_updated_at = null
          where user_id = ${userId} and summary is not null
            and summarized_seq >= (select seq from m)
        )
        select id from m`);
      return result.rows.length > 0;
    },

    /**
     * Whether a summary refresh is due: memory on and at least `enough` of the fan's words
     * newer than the summary (counted no further than `enough`).
     */
    async summaryDue(userId: string, enough: number): Promise<boolean> {
      const result = await run<{ due: boolean }>(sql`
        with f as (select enabled, summarized_seq from ${fanMemory} where user_id = ${userId})
        select coalesce((select enabled from f), true) and (select count(*) from (
            select 1 from ${chatMessages} where user_id = ${userId}
              and sender = 'user' and not forgotten
              and seq > coalesce((select summarized_seq from f), 0)
            limit ${enough}) w) >= ${enough} as due`);
      return result.rows[0]?.due === true;
    },

    /**
     * What a summary update reads: the switch, the summary, and the fan's words since the last
     * update (at most `limit`, the newest), oldest first.
     */
    async summaryInput(userId: string, limit: number) {
      const result = await run<{
        enabled: boolean | null;
        summary: string | null;
        seq: number | string | null;
        words: unknown;
        read: unknown;
      }>(sql`
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
             order by seq desc limit ${limit}) r) as read`);
      const row = result.rows[0];
      const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);
      const raw = json(row?.words);
      return {
        enabled: row?.enabled ?? true,
        summary: row?.summary ?? null,
        throughSeq: row?.seq === null || row?.seq === undefined ? null : Number(row.seq),
        words: (raw ?? []) as string[],
        /** The seq of each message in `words`: the save is refused if one is forgotten since. */
        read: ((json(row?.read) ?? []) as (number | string)[]).map(Number),
      };
    },

    /**
     * Stores a new summary, unless a later one (or memory off) got there first, or one of the
     * messages it was written from (`read`, their seq) was forgotten while it was written.
     */
    async saveSummary(
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
      await run(sql`
        insert into ${fanMemory} (user_id, summary, summary_updated_at, summarized_seq)
        select ${userId}::uuid, ${summary}::text, clock_timestamp(), ${throughSeq}::bigint
        where not ${forgottenSince}
        on conflict (user_id) do update set summary = excluded.summary,
          summary_updated_at = excluded.summary_updated_at, summarized_seq = excluded.summarized_seq
        where ${fanMemory}.summarized_seq < excluded.summarized_seq and ${fanMemory}.enabled`);
    },
  };
}

export type MemoryRepository = ReturnType<typeof createMemoryRepository>;
