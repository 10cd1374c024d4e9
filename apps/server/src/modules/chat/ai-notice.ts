import { aiNoticeText, BREAK_REMINDER_TEXT, type ProductMessageKind } from "@twinline/contracts";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  type ChatMessageRow,
  chatMessages,
  conversations,
  fanSittings,
} from "../../db/schema/index.ts";
import type { Clock } from "../../lib/clock.ts";
import { keepNewest } from "../../lib/keep-newest.ts";
import type { SettingsService } from "../settings/service.ts";
import { CALL_CONVERSATION_TITLE, toMessageRow } from "./repository.ts";
import { type Sitting, type SittingStep, stepSitting } from "./sitting.ts";

/** The product messages one activity gave (none, or the notice and maybe a break reminder). */
export interface GivenNotices {
  messages: ChatMessageRow[];
  /** When the next notice or reminder falls due if the fan goes on (app clock, ms). */
  nextDueAt: number;
}

/** A fan's sitting as stored, with the version of the row (its `xmin`) it was read or written at. */
interface StoredSitting {
  sitting: Sitting | undefined;
  /** Null: the fan has no row yet. */
  version: string | null;
}

/**
 * The insert of the notices due, in one statement with the sitting's move: `ctes` (each led by
 * a comma) and `insert`, which read `sitting` (a row only when the sitting moved) and `t`, the
 * notices in order (ord, kind, content), and return the messages' columns and `seq`.
 */
interface NoticeInsert {
  ctes: SQL;
  insert: SQL;
}

/** Sittings this process last stored, by fan, at most this many (the oldest forgotten first). */
const KNOWN_SITTINGS_LIMIT = 10_000;
/** A step that lost this many races in a row is a fault, not contention. */
const STEP_ATTEMPTS = 20;

const returning = sql.raw(
  "returning id, conversation_id, user_id, sender, product_kind, content, call_id, seq, to_json(created_at) #>> '{}' as created_at",
);

/**
 * The AI notice and the break reminder (issue 25 items 1 and 6;
 * docs/decisions/0058-ai-notice-and-sittings.md). Each activity of the fan (a chat message, a
 * call opened, a live call's heartbeat) moves their sitting on, and the notices that fall due
 * are stored as product messages in the same statement: given exactly once, whichever instance
 * served the fan. The move is a compare-and-set on the row's version (decision 0076): one
 * statement, no transaction holding the database across trips to the app; a move that lost a
 * race reads the row again and decides again. Notices are never sent to the model, never
 * counted as the fan's messages and cost nothing; there is no setting that turns them off.
 */
export function createAiNotices(options: {
  db: Database;
  clock: Clock;
  settings: Pick<SettingsService, "get">;
}) {
  const { db, clock, settings } = options;
  // Both drivers answer raw statements with { rows }.
  const run = async (query: SQL) =>
    (await db.execute(query)) as unknown as { rows: Record<string, unknown>[] };

  /**
   * What this process last stored of each fan's sitting: tried first (a fan's next activity
   * mostly reaches the instance that served the last), always checked by the compare-and-set,
   * so a stale entry costs one read, never a wrong notice.
   */
  const known = new Map<string, StoredSitting>();
  const remember = (userId: string, stored: StoredSitting) => {
    known.delete(userId);
    known.set(userId, stored);
    keepNewest(known, KNOWN_SITTINGS_LIMIT);
  };

  /** The texts of a step's notices, the notice first. */
  const textsOf = async (step: SittingStep) => {
    if (!step.notice) return [];
    const name = (await settings.get()).aiProfile.name;
    const texts: Array<{ kind: ProductMessageKind; content: string }> = [
      { kind: "ai-notice", content: aiNoticeText(name) },
    ];
    if (step.breakReminder) texts.push({ kind: "break-reminder", content: BREAK_REMINDER_TEXT });
    return texts;
  };

  const read = async (userId: string): Promise<StoredSitting> => {
    const { rows } = await run(sql`
      select to_json(last_active_at) #>> '{}' as last_active_at,
        to_json(started_at) #>> '{}' as started_at, to_json(notice_at) #>> '{}' as notice_at,
        to_json(break_at) #>> '{}' as break_at, xmin::text as version
      from ${fanSittings} where user_id = ${userId}`);
    const row = rows[0];
    if (!row) return { sitting: undefined, version: null };
    const at = (value: unknown) => new Date(String(value)).getTime();
    const lastActiveAt = at(row.last_active_at);
    return {
      // A row at the epoch (stored before any activity) is no sitting yet.
      sitting:
        lastActiveAt > 0
          ? {
              startedAt: at(row.started_at),
              lastActiveAt,
              noticeAt: at(row.notice_at),
              breakAt: at(row.break_at),
            }
          : undefined,
      version: String(row.version),
    };
  };

  /** Moves the fan's sitting to now and stores the notices due (`notices`), in one statement. */
  const step = async (
    userId: string,
    starts: boolean,
    notices: NoticeInsert,
  ): Promise<GivenNotices> => {
    let stored = known.get(userId);
    for (let attempt = 0; attempt < STEP_ATTEMPTS; attempt++) {
      stored ??= await read(userId);
      const next = stepSitting(stored.sitting, clock.now(), starts);
      const texts = await textsOf(next);
      const iso = (ms: number) => new Date(ms).toISOString();
      const { startedAt, lastActiveAt, noticeAt, breakAt } = next.sitting;
      const moved =
        stored.version === null
          ? sql`insert into ${fanSittings} (user_id, started_at, last_active_at, notice_at, break_at)
              values (${userId}, ${iso(startedAt)}, ${iso(lastActiveAt)}, ${iso(noticeAt)}, ${iso(breakAt)})
              on conflict (user_id) do nothing
              returning xmin::text as version`
          : sql`update ${fanSittings}
              set started_at = ${iso(startedAt)}, last_active_at = ${iso(lastActiveAt)},
                notice_at = ${iso(noticeAt)}, break_at = ${iso(breakAt)}
              where user_id = ${userId} and xmin = ${stored.version}::text::xid
              returning xmin::text as version`;
      const values = sql.join(
        texts.map(
          ({ kind, content }, i) =>
            sql`(${i}::int, ${kind}::product_message_kind, ${content}::text)`,
        ),
        sql`, `,
      );
      const { rows } = await run(
        texts.length === 0
          ? moved
          : sql`with sitting as (${moved}),
              t (ord, kind, content) as (values ${values}) ${notices.ctes},
              given as (${notices.insert})
              select (select version from sitting) as version,
                (select coalesce(json_agg(given order by given.seq), '[]'::json) from given) as given`,
      );
      const row = rows[0];
      if (row?.version === null || row?.version === undefined) {
        // Another activity moved the sitting first: decide again from what it stored.
        known.delete(userId);
        stored = undefined;
        continue;
      }
      remember(userId, { sitting: next.sitting, version: String(row.version) });
      const given = typeof row.given === "string" ? JSON.parse(row.given) : (row.given ?? []);
      return {
        messages: (given as Record<string, unknown>[]).map((message) => toMessageRow(message)),
        nextDueAt: next.nextDueAt,
      };
    }
    throw new Error(`A fan's sitting moved under ${STEP_ATTEMPTS} steps in a row`);
  };

  return {
    clock,

    /**
     * The fan sent a chat message (already stored) into `conversationId`; `starts`: it began
     * that conversation. The notices due are stored after it, before the persona's reply.
     * They do not move the conversation's message count (fan and persona messages only).
     */
    forChatMessage(userId: string, conversationId: string, starts: boolean): Promise<GivenNotices> {
      return step(userId, starts, {
        ctes: sql``,
        insert: sql`
          insert into ${chatMessages} (conversation_id, user_id, sender, product_kind, content)
          select c.id, c.user_id, 'product', t.kind, t.content from ${conversations} c, t
          where c.id = ${conversationId} and c.user_id = ${userId}
            and exists (select 1 from sitting)
          order by t.ord
          ${returning}`,
      });
    },

    /**
     * A live call's activity: `starts` when it opens, else its heartbeat. The notices due are
     * stored as turns of the call, in the conversation its turns join (the fan's most recently
     * active one, or a new "Voice call" conversation), counted as that conversation's call.
     */
    forCall(userId: string, callId: string, starts: boolean): Promise<GivenNotices> {
      return step(userId, starts, {
        ctes: sql`,
          target as (
            select id from ${conversations}
            where user_id = ${userId} and exists (select 1 from sitting)
            order by last_message_at desc limit 1
          ),
          created as (
            insert into ${conversations} (user_id, title, message_count, call_count)
            select ${userId}, ${CALL_CONVERSATION_TITLE}, 0, 1
            where not exists (select 1 from target) and exists (select 1 from sitting)
            returning id
          ),
          counted as (
            update ${conversations}
            set call_count = call_count + case when exists (
              select 1 from ${chatMessages} where call_id = ${callId} and conversation_id = ${conversations}.id
            ) then 0 else 1 end
            where id in (select id from target)
            returning id
          ),
          c as (select id from counted union all select id from created)`,
        insert: sql`
          insert into ${chatMessages} (conversation_id, user_id, sender, product_kind, content, call_id)
          select c.id, ${userId}, 'product', t.kind, t.content, ${callId} from c, t
          order by t.ord
          ${returning}`,
      });
    },
  };
}

export type AiNotices = ReturnType<typeof createAiNotices>;
