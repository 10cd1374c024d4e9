import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  type ChatMessageRow,
  chatDailyUsage,
  chatMessages,
  conversations,
} from "../../../db/schema/index.ts";
import { type HistoryRow, rowsOf, toMessageRow } from "./rows.ts";

export type SendOutcome =
  /** Today's free messages are used up; nothing was counted or saved. */
  | { kind: "limit" }
  /** Counted, but the conversation is not the user's (or is gone): give the count back. */
  | { kind: "notFound"; count: number }
  | { kind: "saved"; count: number; message: ChatMessageRow; history: HistoryRow[] };

export interface SendUserMessageInput {
  userId: string;
  day: string;
  limit: number | null;
  conversationId: string | null | undefined;
  title: string;
  content: string;
  historyLimit: number;
}

/**
 * A user's message, in one statement: counted for today, then saved, with the history the
 * prompt needs. The count is the upsert of decision 0011: the row is created or its count
 * raised only while below `limit` (null: no limit), so parallel sends cannot pass it. Only
 * when it counted is the message saved: into `conversationId` if that is the user's (its
 * counters move), else into a new conversation titled `title`. The history is the
 * conversation's newest `historyLimit` messages before this one, newest first (the
 * statement's snapshot does not see its own insert).
 */
export async function sendUserMessage(
  db: Database,
  input: SendUserMessageInput,
): Promise<SendOutcome> {
  const { userId, day, limit, content } = input;
  if (limit !== null && limit <= 0) return { kind: "limit" };
  const take = sql`
    take as (
      insert into ${chatDailyUsage} (user_id, day, count) values (${userId}, ${day}, 1)
      on conflict (user_id, day) do update set count = ${chatDailyUsage}.count + 1
      ${limit === null ? sql`` : sql`where ${chatDailyUsage}.count < ${limit}`}
      returning count
    )`;
  const conversation = input.conversationId
    ? sql`
    c as (
      update ${conversations}
      set message_count = message_count + 1, last_message_at = clock_timestamp()
      where id = ${input.conversationId} and user_id = ${userId} and exists (select 1 from take)
      returning id, last_message_at as at
    )`
    : sql`
    c as (
      insert into ${conversations} (user_id, title, message_count)
      select ${userId}, ${input.title}, 1 from take
      returning id, started_at as at
    )`;
  const history = input.conversationId
    ? sql`(select coalesce(json_agg(json_build_object('id', h.id, 'sender', h.sender, 'content', h.content)), '[]'::json)
        from (select id, sender, content from ${chatMessages}
              where conversation_id = ${input.conversationId} and not forgotten
                and sender <> 'product'
              order by created_at desc, seq desc limit ${input.historyLimit}) h)`
    : sql`'[]'::json`;
  const [row] = await rowsOf<Record<string, unknown>>(
    db,
    sql`
    with ${take}, ${conversation},
    m as (
      insert into ${chatMessages} (conversation_id, user_id, sender, content, created_at)
      select c.id, ${userId}, 'user', ${content}, c.at from c
      returning id, conversation_id, user_id, sender, content, created_at
    )
    select (select count from take) as taken,
      m.id, m.conversation_id, m.user_id, m.sender, m.content,
      to_json(m.created_at) #>> '{}' as created_at,
      ${history} as history
    from (select 1) as one left join m on true`,
  );
  return sendOutcomeOf(row);
}

/**
 * What the send statement's one row says: not counted (the limit), counted but not saved (the
 * conversation is not the user's), or saved with the prompt's history (json or its text,
 * whichever the driver answered).
 */
export function sendOutcomeOf(row: Record<string, unknown> | undefined): SendOutcome {
  if (!row || row.taken === null || row.taken === undefined) return { kind: "limit" };
  const count = Number(row.taken);
  if (row.id === null || row.id === undefined) return { kind: "notFound", count };
  const raw = typeof row.history === "string" ? JSON.parse(row.history) : row.history;
  return {
    kind: "saved",
    count,
    message: toMessageRow(row),
    history: (raw ?? []) as HistoryRow[],
  };
}

/** Gives back a message counted on `day` (the reply failed). */
export async function giveBackDailyMessage(
  db: Database,
  userId: string,
  day: string,
): Promise<void> {
  await db
    .update(chatDailyUsage)
    .set({ count: sql`greatest(${chatDailyUsage.count} - 1, 0)` })
    .where(and(eq(chatDailyUsage.userId, userId), eq(chatDailyUsage.day, day)));
}

/** Today's count and the lifetime total of a user (one query on the primary key). */
export async function dailyUsage(
  db: Database,
  userId: string,
  day: string,
): Promise<{ today: number; total: number }> {
  const [row] = await db
    .select({
      today: sql<number>`coalesce(sum(${chatDailyUsage.count}) filter (where ${chatDailyUsage.day} = ${day}), 0)::int`,
      total: sql<number>`coalesce(sum(${chatDailyUsage.count}), 0)::int`,
    })
    .from(chatDailyUsage)
    .where(eq(chatDailyUsage.userId, userId));
  return { today: Number(row?.today ?? 0), total: Number(row?.total ?? 0) };
}
