import type { ChatLogsQuery } from "@twinline/contracts";
import {
  type AnyColumn,
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  inArray,
  isNotNull,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  type ConversationRow,
  chatMessages,
  conversations,
  type UserRow,
  users,
} from "../../../db/schema/index.ts";
import { dateRange } from "../../../lib/date-range.ts";
import { pageOffset } from "../../../lib/paging.ts";
import { containsPattern } from "../../../lib/search.ts";
import { hasActiveSubscriptionSql } from "../../users/subscription-state.ts";
import type { TranscriptRow } from "./rows.ts";

export interface ChatLogRow {
  conversation: ConversationRow;
  /** Messages the crisis check flagged. */
  flagged: number;
  user: Pick<UserRow, "id" | "name" | "email" | "profileImage"> & { subscribed: boolean };
}

/** The chat logs' filters: the query without its page. */
export type ChatLogFilters = Omit<ChatLogsQuery, "page" | "limit">;

const durationSql = sql`(${conversations.lastMessageAt} - ${conversations.startedAt})`;

// Each sort is served by an index (schema/chat.ts); the id breaks ties so pages are stable.
const CHAT_LOG_SORTS: Record<ChatLogsQuery["sortBy"], SQL | AnyColumn> = {
  startTime: conversations.startedAt,
  lastMessageAt: conversations.lastMessageAt,
  messageCount: sql`${conversations.messageCount}`,
  duration: durationSql,
};

/** The flagged messages of the conversation a chat log row is (chat_messages_flagged_idx). */
const flaggedIn = sql`select 1 from ${chatMessages} flagged
  where flagged.conversation_id = ${conversations.id} and flagged.flag_category is not null`;

/** The filters of the admin's chat logs, shared by the page, its count and the export. */
function chatLogFilters(query: ChatLogFilters): SQL | undefined {
  const filters: SQL[] = [];
  if (query.search) {
    const pattern = containsPattern(query.search);
    const match = or(ilike(users.name, pattern), ilike(users.email, pattern));
    if (match) filters.push(match);
  }
  if (query.plan !== "all") {
    const subscribed = hasActiveSubscriptionSql();
    filters.push(query.plan === "premium" ? subscribed : sql`not (${subscribed})`);
  }
  if (query.channel === "call") filters.push(sql`${conversations.callCount} > 0`);
  if (query.channel === "chat") filters.push(sql`${conversations.callCount} = 0`);
  // The Flagged filter (issue 25): served by chat_messages_flagged_idx.
  if (query.flagged === "flagged") filters.push(sql`exists (${flaggedIn})`);
  filters.push(...dateRange(conversations.startedAt, query.startDate, query.endDate));
  return filters.length > 0 ? and(...filters) : undefined;
}

/** The chat logs matching the filters, in the query's order (to page or to batch). */
function chatLogsSelect(db: Database, query: ChatLogFilters) {
  const direction = query.sortOrder === 1 ? asc : desc;
  return db
    .select({
      conversation: conversations,
      flagged: sql<number>`(select count(*) from (${flaggedIn}) f)::int`.mapWith(Number),
      user: {
        id: users.id,
        name: users.name,
        email: users.email,
        profileImage: users.profileImage,
        subscribed: hasActiveSubscriptionSql(),
      },
    })
    .from(conversations)
    .innerJoin(users, eq(users.id, conversations.userId))
    .where(chatLogFilters(query))
    .orderBy(direction(CHAT_LOG_SORTS[query.sortBy]), direction(conversations.id));
}

/** One page of the admin's chat logs and its total: two indexed queries. */
export async function chatLogs(
  db: Database,
  query: ChatLogsQuery,
): Promise<{ rows: ChatLogRow[]; total: number }> {
  const [rows, totals] = await Promise.all([
    chatLogsSelect(db, query).limit(query.limit).offset(pageOffset(query)),
    db
      .select({ total: count() })
      .from(conversations)
      .innerJoin(users, eq(users.id, conversations.userId))
      .where(chatLogFilters(query)),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

/** Every chat log matching the filters, in batches (the CSV export streams them). */
export async function* allChatLogs(
  db: Database,
  query: ChatLogFilters,
  batchSize = 500,
): AsyncGenerator<ChatLogRow[]> {
  for (let offset = 0; ; offset += batchSize) {
    const rows = await chatLogsSelect(db, query).limit(batchSize).offset(offset);
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
  }
}

/**
 * The call turns of some conversations, oldest first, by conversation (the CSV export's
 * transcripts): one statement per batch of rows.
 */
export async function callTurnsOf(
  db: Database,
  conversationIds: string[],
): Promise<Map<string, TranscriptRow[]>> {
  if (conversationIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: chatMessages.id,
      conversationId: chatMessages.conversationId,
      sender: chatMessages.sender,
      productKind: chatMessages.productKind,
      content: chatMessages.content,
    })
    .from(chatMessages)
    .where(
      and(inArray(chatMessages.conversationId, conversationIds), isNotNull(chatMessages.callId)),
    )
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.seq));
  return turnsByConversation(rows);
}

/** Turns grouped by their conversation, each conversation's kept in the order given. */
export function turnsByConversation(
  rows: ReadonlyArray<TranscriptRow & { conversationId: string }>,
): Map<string, TranscriptRow[]> {
  const turns = new Map<string, TranscriptRow[]>();
  for (const { conversationId, ...turn } of rows) {
    const list = turns.get(conversationId) ?? [];
    list.push(turn);
    turns.set(conversationId, list);
  }
  return turns;
}
