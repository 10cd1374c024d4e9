import { randomUUID } from "node:crypto";
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
import type { Database } from "../../db/client.ts";
import {
  type ChatMessageRow,
  type ConversationRow,
  chatDailyUsage,
  chatMessages,
  conversations,
  type UserRow,
  users,
  voiceCalls,
} from "../../db/schema/index.ts";
import { dateRange } from "../../lib/date-range.ts";
import { type PageRequest, pageOffset } from "../../lib/paging.ts";
import { containsPattern } from "../../lib/search.ts";
import { hasActiveSubscriptionSql } from "../users/subscription-state.ts";

/** A UTC day as PostgreSQL's date: "2025-03-14". */
export function utcDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A message of the prompt's history: the fan's and the persona's only, never a product message. */
export type HistoryRow = Pick<ChatMessageRow, "id" | "content"> & { sender: "user" | "ai" };
/** A turn of a stored transcript, product messages (the spoken AI notice) included. */
export type TranscriptRow = Pick<ChatMessageRow, "id" | "sender" | "content" | "productKind">;

export type SendOutcome =
  /** Today's free messages are used up; nothing was counted or saved. */
  | { kind: "limit" }
  /** Counted, but the conversation is not the user's (or is gone): give the count back. */
  | { kind: "notFound"; count: number }
  | { kind: "saved"; count: number; message: ChatMessageRow; history: HistoryRow[] };

export interface ChatLogRow {
  conversation: ConversationRow;
  /** Messages the crisis check flagged. */
  flagged: number;
  user: Pick<UserRow, "id" | "name" | "email" | "profileImage"> & { subscribed: boolean };
}

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
function chatLogFilters(query: Omit<ChatLogsQuery, "page" | "limit">): SQL | undefined {
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

/** The title of a conversation a call started. */
export const CALL_CONVERSATION_TITLE = "Voice call";

/** A message's columns, with its call's duration when it is a call turn (null while live). */
const messageColumns = {
  id: chatMessages.id,
  conversationId: chatMessages.conversationId,
  userId: chatMessages.userId,
  sender: chatMessages.sender,
  productKind: chatMessages.productKind,
  flagCategory: chatMessages.flagCategory,
  flagSource: chatMessages.flagSource,
  content: chatMessages.content,
  createdAt: chatMessages.createdAt,
  replyFailed: chatMessages.replyFailed,
  callId: chatMessages.callId,
  callDuration: sql<
    number | null
  >`case when ${voiceCalls.endedAt} is null then null else ${voiceCalls.durationSeconds} end`,
};

export function createChatRepository(db: Database) {
  // Both drivers answer raw statements with { rows }.
  const run = async <T>(query: SQL) => (await db.execute(query)) as unknown as { rows: T[] };
  const logColumns = {
    conversation: conversations,
    flagged: sql<number>`(select count(*) from (${flaggedIn}) f)::int`.mapWith(Number),
    user: {
      id: users.id,
      name: users.name,
      email: users.email,
      profileImage: users.profileImage,
      subscribed: hasActiveSubscriptionSql(),
    },
  };

  const chatLogsSelect = (query: Omit<ChatLogsQuery, "page" | "limit">) => {
    const direction = query.sortOrder === 1 ? asc : desc;
    return db
      .select(logColumns)
      .from(conversations)
      .innerJoin(users, eq(users.id, conversations.userId))
      .where(chatLogFilters(query))
      .orderBy(direction(CHAT_LOG_SORTS[query.sortBy]), direction(conversations.id));
  };

  return {
    /**
     * A user's message, in one statement: counted for today, then saved, with the history the
     * prompt needs. The count is the upsert of decision 0011: the row is created or its count
     * raised only while below `limit` (null: no limit), so parallel sends cannot pass it. Only
     * when it counted is the message saved: into `conversationId` if that is the user's (its
     * counters move), else into a new conversation titled `title`. The history is the
     * conversation's newest `historyLimit` messages before this one, newest first (the
     * statement's snapshot does not see its own insert).
     */
    async sendUserMessage(input: {
      userId: string;
      day: string;
      limit: number | null;
      conversationId: string | null | undefined;
      title: string;
      content: string;
      historyLimit: number;
    }): Promise<SendOutcome> {
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
      const result = await run<Record<string, unknown>>(sql`
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
        from (select 1) as one left join m on true`);
      const row = result.rows[0];
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
    },

    /** Gives back a message counted on `day` (the reply failed). */
    async giveBackDailyMessage(userId: string, day: string): Promise<void> {
      await db
        .update(chatDailyUsage)
        .set({ count: sql`greatest(${chatDailyUsage.count} - 1, 0)` })
        .where(and(eq(chatDailyUsage.userId, userId), eq(chatDailyUsage.day, day)));
    },

    /** Today's count and the lifetime total of a user (one query on the primary key). */
    async usage(userId: string, day: string): Promise<{ today: number; total: number }> {
      const [row] = await db
        .select({
          today: sql<number>`coalesce(sum(${chatDailyUsage.count}) filter (where ${chatDailyUsage.day} = ${day}), 0)::int`,
          total: sql<number>`coalesce(sum(${chatDailyUsage.count}), 0)::int`,
        })
        .from(chatDailyUsage)
        .where(eq(chatDailyUsage.userId, userId));
      return { today: Number(row?.today ?? 0), total: Number(row?.total ?? 0) };
    },

    async findConversation(id: string, userId?: string): Promise<ConversationRow | undefined> {
      const [row] = await db
        .select()
        .from(conversations)
        .where(
          userId === undefined
            ? eq(conversations.id, id)
            : and(eq(conversations.id, id), eq(conversations.userId, userId)),
        );
      return row;
    },

    /** A new conversation holding its first message, in one statement. */
    async startConversation(
      userId: string,
      title: string,
      content: string,
    ): Promise<ChatMessageRow> {
      const result = await run<Record<string, unknown>>(sql`
        with c as (
          insert into ${conversations} (user_id, title, message_count)
          values (${userId}, ${title}, 1)
          returning id, started_at
        )
        insert into ${chatMessages} (conversation_id, user_id, sender, content, created_at)
        select c.id, ${userId}, 'user', ${content}, c.started_at from c
        returning id, conversation_id, user_id, sender, content, to_json(created_at) #>> '{}' as created_at`);
      return toMessageRow(result.rows[0]);
    },

    /**
     * Adds a message to a conversation of `userId` and moves its counters, in one statement.
     * Undefined when the conversation is gone (deleted meanwhile) or is not theirs.
     */
    async addMessage(
      conversationId: string,
      userId: string,
      sender: "user" | "ai",
      content: string,
    ): Promise<ChatMessageRow | undefined> {
      const result = await run<Record<string, unknown>>(sql`
        with c as (
          update ${conversations}
          set message_count = message_count + 1, last_message_at = clock_timestamp()
          where id = ${conversationId} and user_id = ${userId}
          returning id, last_message_at
        )
        insert into ${chatMessages} (conversation_id, user_id, sender, content, created_at)
        select c.id, ${userId}, ${sender}, ${content}, c.last_message_at from c
        returning id, conversation_id, user_id, sender, content, to_json(created_at) #>> '{}' as created_at`);
      const row = result.rows[0];
      return row ? toMessageRow(row) : undefined;
    },

    /** Marks a user's message whose reply failed, so the chat shows it after a reload too. */
    async markReplyFailed(messageId: string, userId: string): Promise<void> {
      await db
        .update(chatMessages)
        .set({ replyFailed: true })
        .where(and(eq(chatMessages.id, messageId), eq(chatMessages.userId, userId)));
    },

    /**
     * A turn of a voice call, into the fan's most recently active conversation (a new one,
     * titled "Voice call", when they have none), its counters moved, in one statement. Call
     * turns are paid by the call's minutes: they do not count against the free messages.
     */
    async addCallTurn(input: {
      userId: string;
      callId: string;
      sender: "user" | "ai";
      content: string;
      /** Shown in the chat and the logs, never in a prompt or memory (a call's marker). */
      forgotten?: boolean;
      /** The message's id, when the caller names it before it is stored (a call's history). */
      id?: string;
    }): Promise<ChatMessageRow> {
      const { userId, callId, sender, content } = input;
      const forgotten = input.forgotten ?? false;
      const id = input.id ?? randomUUID();
      const result = await run<Record<string, unknown>>(sql`
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
        returning id, conversation_id, user_id, sender, content, call_id, to_json(created_at) #>> '{}' as created_at`);
      return toMessageRow(result.rows[0]);
    },

    /**
     * The prompt history of a call: the newest `limit` messages of the fan's most recently
     * active conversation (chat and call turns alike), oldest first, forgotten ones left out.
     */
    async recentHistory(userId: string, limit: number): Promise<HistoryRow[]> {
      const result = await run<HistoryRow>(sql`
        select id, sender, content from (
          select m.id, m.sender, m.content, m.created_at, m.seq from ${chatMessages} m
          where m.conversation_id = (
            select id from ${conversations} where user_id = ${userId}
            order by last_message_at desc limit 1
          ) and not m.forgotten and m.sender <> 'product'
          order by m.created_at desc, m.seq desc limit ${limit}
        ) h order by created_at, seq`);
      return result.rows;
    },

    /** A call's transcript, oldest first (empty once the fan cleared their history). */
    async callTranscript(callId: string): Promise<ChatMessageRow[]> {
      return db
        .select(messageColumns)
        .from(chatMessages)
        .leftJoin(voiceCalls, eq(voiceCalls.id, chatMessages.callId))
        .where(eq(chatMessages.callId, callId))
        .orderBy(asc(chatMessages.createdAt), asc(chatMessages.seq));
    },

    /**
     * One page of messages, page 1 the newest, oldest to newest inside the page: of one user
     * (across conversations) or of one conversation. Two indexed queries.
     */
    async messagesPage(
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
    },

    /** A user's conversations, the most recently active first (at most `limit`). */
    async listConversations(userId: string, limit: number): Promise<ConversationRow[]> {
      return db
        .select()
        .from(conversations)
        .where(eq(conversations.userId, userId))
        .orderBy(desc(conversations.lastMessageAt))
        .limit(limit);
    },

    /** Deletes one conversation of the user (messages go with it); false when there is none. */
    async deleteConversation(id: string, userId: string): Promise<boolean> {
      const rows = await db
        .delete(conversations)
        .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
        .returning({ id: conversations.id });
      return rows.length > 0;
    },

    /** Deletes every conversation of the user; answers how many. */
    async clearHistory(userId: string): Promise<number> {
      const rows = await db
        .delete(conversations)
        .where(eq(conversations.userId, userId))
        .returning({ id: conversations.id });
      return rows.length;
    },

    /** One page of the admin's chat logs and its total: two indexed queries. */
    async chatLogs(query: ChatLogsQuery): Promise<{ rows: ChatLogRow[]; total: number }> {
      const [rows, totals] = await Promise.all([
        chatLogsSelect(query).limit(query.limit).offset(pageOffset(query)),
        db
          .select({ total: count() })
          .from(conversations)
          .innerJoin(users, eq(users.id, conversations.userId))
          .where(chatLogFilters(query)),
      ]);
      return { rows, total: totals[0]?.total ?? 0 };
    },

    /**
     * The call turns of some conversations, oldest first, by conversation (the CSV export's
     * transcripts): one statement per batch of rows.
     */
    async callTurnsOf(conversationIds: string[]): Promise<Map<string, TranscriptRow[]>> {
      const turns = new Map<string, TranscriptRow[]>();
      if (conversationIds.length === 0) return turns;
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
          and(
            inArray(chatMessages.conversationId, conversationIds),
            isNotNull(chatMessages.callId),
          ),
        )
        .orderBy(asc(chatMessages.createdAt), asc(chatMessages.seq));
      for (const { conversationId, ...turn } of rows) {
        const list = turns.get(conversationId) ?? [];
        list.push(turn);
        turns.set(conversationId, list);
      }
      return turns;
    },

    /** Every chat log matching the filters, in batches (the CSV export streams them). */
    async *allChatLogs(
      query: Omit<ChatLogsQuery, "page" | "limit">,
      batchSize = 500,
    ): AsyncGenerator<ChatLogRow[]> {
      for (let offset = 0; ; offset += batchSize) {
        const rows = await chatLogsSelect(query).limit(batchSize).offset(offset);
        if (rows.length > 0) yield rows;
        if (rows.length < batchSize) return;
      }
    },
  };
}

export function toMessageRow(row: Record<string, unknown> | undefined): ChatMessageRow {
  if (!row) throw new Error("The message was not saved");
  // An ISO 8601 text (to_json), whichever driver answered.
  const createdAt = row.created_at;
  return {
    id: String(row.id),
    conversationId: String(row.conversation_id),
    userId: String(row.user_id),
    sender: row.sender === "ai" || row.sender === "product" ? row.sender : "user",
    ...(row.product_kind ? { productKind: row.product_kind as ChatMessageRow["productKind"] } : {}),
    content: String(row.content),
    replyFailed: row.reply_failed === true,
    callId: row.call_id === null || row.call_id === undefined ? null : String(row.call_id),
    createdAt: createdAt instanceof Date ? createdAt : new Date(String(createdAt)),
  };
}

export type ChatRepository = ReturnType<typeof createChatRepository>;
