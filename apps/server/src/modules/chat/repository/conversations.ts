import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  type ChatMessageRow,
  type ConversationRow,
  chatMessages,
  conversations,
  voiceCalls,
} from "../../../db/schema/index.ts";
import { type PageRequest, pageOffset } from "../../../lib/paging.ts";
import { messageColumns, rowsOf, toMessageRow } from "./rows.ts";

/** A conversation, of `userId` when given. */
export async function findConversation(
  db: Database,
  id: string,
  userId?: string,
): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(
      userId === undefined
        ? eq(conversations.id, id)
        : and(eq(conversations.id, id), eq(conversations.userId, userId)),
    );
  return row;
}

/** A new conversation holding its first message, in one statement. */
export async function startConversation(
  db: Database,
  userId: string,
  title: string,
  content: string,
): Promise<ChatMessageRow> {
  const [row] = await rowsOf<Record<string, unknown>>(
    db,
    sql`
    with c as (
      insert into ${conversations} (user_id, title, message_count)
      values (${userId}, ${title}, 1)
      returning id, started_at
    )
    insert into ${chatMessages} (conversation_id, user_id, sender, content, created_at)
    select c.id, ${userId}, 'user', ${content}, c.started_at from c
    returning id, conversation_id, user_id, sender, content, to_json(created_at) #>> '{}' as created_at`,
  );
  return toMessageRow(row);
}

/**
 * Adds a message to a conversation of `userId` and moves its counters, in one statement.
 * Undefined when the conversation is gone (deleted meanwhile) or is not theirs.
 */
export async function addMessage(
  db: Database,
  conversationId: string,
  userId: string,
  sender: "user" | "ai",
  content: string,
): Promise<ChatMessageRow | undefined> {
  const [row] = await rowsOf<Record<string, unknown>>(
    db,
    sql`
    with c as (
      update ${conversations}
      set message_count = message_count + 1, last_message_at = clock_timestamp()
      where id = ${conversationId} and user_id = ${userId}
      returning id, last_message_at
    )
    insert into ${chatMessages} (conversation_id, user_id, sender, content, created_at)
    select c.id, ${userId}, ${sender}, ${content}, c.last_message_at from c
    returning id, conversation_id, user_id, sender, content, to_json(created_at) #>> '{}' as created_at`,
  );
  return row ? toMessageRow(row) : undefined;
}

/** Marks a user's message whose reply failed, so the chat shows it after a reload too. */
export async function markReplyFailed(
  db: Database,
  messageId: string,
  userId: string,
): Promise<void> {
  await db
    .update(chatMessages)
    .set({ replyFailed: true })
    .where(and(eq(chatMessages.id, messageId), eq(chatMessages.userId, userId)));
}

/**
 * One page of messages, page 1 the newest, oldest to newest inside the page: of one user
 * (across conversations) or of one conversation. Two indexed queries.
 */
export async function messagesPage(
  db: Database,
  scope: { userId: string } | { conversationId: string },
  { page, limit }: PageRequest,
): Promise<{ rows: ChatMessageRow[]; total: number }> {
  const where =
    "userId" in scope
      ? eq(chatMessages.userId, scope.userId)
      : eq(chatMessages.conversationId, scope.conversationId);
  const [rows, totals] = await Promise.all([
    db
      .select(messageColumns)
      .from(chatMessages)
      .leftJoin(voiceCalls, eq(voiceCalls.id, chatMessages.callId))
      .where(where)
      .orderBy(desc(chatMessages.createdAt), desc(chatMessages.seq))
      .limit(limit)
      .offset(pageOffset({ page, limit })),
    db.select({ total: count() }).from(chatMessages).where(where),
  ]);
  return { rows: rows.reverse(), total: totals[0]?.total ?? 0 };
}

/** A user's conversations, the most recently active first (at most `limit`). */
export async function listConversations(
  db: Database,
  userId: string,
  limit: number,
): Promise<ConversationRow[]> {
  return db
    .select()
    .from(conversations)
    .where(eq(conversations.userId, userId))
    .orderBy(desc(conversations.lastMessageAt))
    .limit(limit);
}

/** Deletes one conversation of the user (messages go with it); false when there is none. */
export async function deleteConversation(
  db: Database,
  id: string,
  userId: string,
): Promise<boolean> {
  const rows = await db
    .delete(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .returning({ id: conversations.id });
  return rows.length > 0;
}

/** Deletes every conversation of the user; answers how many. */
export async function clearHistory(db: Database, userId: string): Promise<number> {
  const rows = await db
    .delete(conversations)
    .where(eq(conversations.userId, userId))
    .returning({ id: conversations.id });
  return rows.length;
}
