import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  type ChatMessageRow,
  chatMessages,
  conversations,
  voiceCalls,
} from "../../../db/schema/index.ts";
import { type HistoryRow, messageColumns, rowsOf, toMessageRow } from "./rows.ts";

/** The title of a conversation a call started. */
export const CALL_CONVERSATION_TITLE = "Voice call";

export interface CallTurnInput {
  userId: string;
  callId: string;
  sender: "user" | "ai";
  content: string;
  /** Shown in the chat and the logs, never in a prompt or memory (a call's marker). */
  forgotten?: boolean;
  /** The message's id, when the caller names it before it is stored (a call's history). */
  id?: string;
}

/**
 * A turn of a voice call, into the fan's most recently active conversation (a new one,
 * titled "Voice call", when they have none), its counters moved, in one statement. Call
 * turns are paid by the call's minutes: they do not count against the free messages.
 */
export async function addCallTurn(db: Database, input: CallTurnInput): Promise<ChatMessageRow> {
  const { userId, callId, sender, content } = input;
  const forgotten = input.forgotten ?? false;
  const id = input.id ?? randomUUID();
  const [row] = await rowsOf<Record<string, unknown>>(
    db,
    sql`
    with target as (
      select id from ${conversations} where user_id = ${userId}
      order by last_message_at desc limit 1
    ),
    created as (
      insert into ${conversations} (user_id, title, message_count, call_count)
      select ${userId}, ${CALL_CONVERSATION_TITLE}, 1, 1 where not exists (select 1 from target)
      returning id, started_at as at
    ),
    moved as (
      update ${conversations}
      set message_count = message_count + 1, last_message_at = clock_timestamp(),
        call_count = call_count + case when exists (
          select 1 from ${chatMessages} where call_id = ${callId} and conversation_id = ${conversations}.id
        ) then 0 else 1 end
      where id in (select id from target)
      returning id, last_message_at as at
    ),
    c as (select id, at from moved union all select id, at from created)
    insert into ${chatMessages} (id, conversation_id, user_id, sender, content, created_at, call_id, forgotten)
    select ${id}, c.id, ${userId}, ${sender}, ${content}, c.at, ${callId}, ${forgotten} from c
    returning id, conversation_id, user_id, sender, content, call_id, to_json(created_at) #>> '{}' as created_at`,
  );
  return toMessageRow(row);
}

/**
 * The prompt history of a call: the newest `limit` messages of the fan's most recently
 * active conversation (chat and call turns alike), oldest first, forgotten ones left out.
 */
export async function recentHistory(
  db: Database,
  userId: string,
  limit: number,
): Promise<HistoryRow[]> {
  return rowsOf<HistoryRow>(
    db,
    sql`
    select id, sender, content from (
      select m.id, m.sender, m.content, m.created_at, m.seq from ${chatMessages} m
      where m.conversation_id = (
        select id from ${conversations} where user_id = ${userId}
        order by last_message_at desc limit 1
      ) and not m.forgotten and m.sender <> 'product'
      order by m.created_at desc, m.seq desc limit ${limit}
    ) h order by created_at, seq`,
  );
}

/** A call's transcript, oldest first (empty once the fan cleared their history). */
export async function callTranscript(db: Database, callId: string): Promise<ChatMessageRow[]> {
  return db
    .select(messageColumns)
    .from(chatMessages)
    .leftJoin(voiceCalls, eq(voiceCalls.id, chatMessages.callId))
    .where(eq(chatMessages.callId, callId))
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.seq));
}
