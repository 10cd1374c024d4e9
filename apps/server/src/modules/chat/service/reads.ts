import type { ChatLog, ChatLogsQuery, ChatUsage, Conversation } from "@twinline/contracts";
import type { UserRow } from "../../../db/schema/index.ts";
import { type PageRequest, pagination } from "../../../lib/paging.ts";
import { utcDay } from "../../../lib/utc-day.ts";
import { type ChatDeps, isSubscriber, notFound } from "./deps.ts";
import { toChatLog, toChatMessage, toConversation, transcriptText } from "./views.ts";

/** At most this many conversations are listed (the most recently active). */
export const CONVERSATIONS_LIMIT = 100;

/** The fan's messages today and in all, and what is left of today's free ones. */
export async function chatUsage(deps: ChatDeps, user: UserRow): Promise<ChatUsage> {
  const [current, counts] = await Promise.all([
    deps.settings.get(),
    deps.repository.usage(user.id, utcDay(deps.now())),
  ]);
  const dailyLimit = current.freeMessagesPerDay;
  return {
    total: counts.total,
    sentToday: counts.today,
    dailyLimit,
    remaining: isSubscriber(deps, user) ? "unlimited" : Math.max(0, dailyLimit - counts.today),
  };
}

export async function userMessages(deps: ChatDeps, user: UserRow, page: PageRequest) {
  const { rows, total } = await deps.repository.messagesPage({ userId: user.id }, page);
  return {
    messages: rows.map((row) => toChatMessage(row)),
    pagination: pagination(total, page),
  };
}

export async function conversations(deps: ChatDeps, user: UserRow): Promise<Conversation[]> {
  const rows = await deps.repository.listConversations(user.id, CONVERSATIONS_LIMIT);
  return rows.map(toConversation);
}

/** One conversation's messages; `userId` undefined: any user's (the admin's chat logs). */
export async function conversationMessages(
  deps: ChatDeps,
  conversationId: string,
  userId: string | undefined,
  page: PageRequest,
) {
  const conversation = await deps.repository.findConversation(conversationId, userId);
  if (!conversation) throw notFound();
  const { rows, total } = await deps.repository.messagesPage({ conversationId }, page);
  // The admin's logs (no user) see which messages the crisis check flagged.
  const withFlag = userId === undefined;
  return {
    messages: rows.map((row) => toChatMessage(row, withFlag)),
    pagination: pagination(total, page),
  };
}

export async function deleteConversation(
  deps: ChatDeps,
  user: UserRow,
  conversationId: string,
): Promise<void> {
  if (!(await deps.repository.deleteConversation(conversationId, user.id))) throw notFound();
}

export async function clearHistory(deps: ChatDeps, user: UserRow): Promise<void> {
  await deps.repository.clearHistory(user.id);
}

export async function chatLogs(deps: ChatDeps, query: ChatLogsQuery) {
  const [{ rows, total }, current] = await Promise.all([
    deps.repository.chatLogs(query),
    deps.settings.get(),
  ]);
  return {
    logs: rows.map((row) => toChatLog(row, current.aiProfile.name)),
    pagination: pagination(total, query),
  };
}

/**
 * Every matching chat log, batch by batch, for the CSV export, each with its calls'
 * transcript ("Fan: …" and "<persona>: …" lines; empty without calls).
 */
export async function* allChatLogs(
  deps: ChatDeps,
  query: Omit<ChatLogsQuery, "page" | "limit">,
): AsyncGenerator<Array<ChatLog & { transcript: string }>> {
  const character = (await deps.settings.get()).aiProfile.name;
  for await (const rows of deps.repository.allChatLogs(query)) {
    const withCalls = rows.filter((row) => row.conversation.callCount > 0);
    const turns = await deps.repository.callTurnsOf(withCalls.map((row) => row.conversation.id));
    yield rows.map((row) => ({
      ...toChatLog(row, character),
      transcript: transcriptText(turns.get(row.conversation.id) ?? [], character),
    }));
  }
}
