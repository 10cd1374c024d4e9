import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  type ChatLog,
  type ChatLogsQuery,
  type ChatMessage,
  type Pagination,
  routes,
} from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";

/** Rows per page of the chat logs table. */
export const CHAT_LOGS_PAGE_SIZE = 10;
/** Messages per page of one conversation. */
export const CONVERSATION_PAGE_SIZE = 20;
/** The CSV can take longer than a page: the upload time limit. */
const EXPORT_TIMEOUT_MS = 60_000;

export type ChatLogSortField = ChatLogsQuery["sortBy"];
export type ChatLogPlan = ChatLogsQuery["plan"];
export type ChatLogChannel = ChatLogsQuery["channel"];
export type ChatLogFlagged = ChatLogsQuery["flagged"];
export type SortOrder = 1 | -1;

/** What the table asks for (all but the page go to the export too). */
export interface ChatLogsParams {
  page: number;
  search: string;
  plan: ChatLogPlan;
  /** Conversations with voice calls, without, or all. */
  channel: ChatLogChannel;
  /** Only conversations holding a message the crisis check flagged, or all. */
  flagged: ChatLogFlagged;
  /** yyyy-MM-dd or "" */
  startDate: string;
  endDate: string;
  sortBy: ChatLogSortField;
  sortOrder: SortOrder;
}

export interface ChatLogsPage {
  logs: ChatLog[];
  pagination: Pagination;
}

export interface ConversationPage {
  messages: ChatMessage[];
  pagination: Pagination;
}

export const chatLogsKeys = {
  all: ["admin", "chat-logs"] as const,
  list: (params: ChatLogsParams) => ["admin", "chat-logs", "list", params] as const,
  messages: (id: string, page: number) => ["admin", "chat-logs", "messages", id, page] as const,
};

/** The filters as query parameters; empty ones are left out. */
export function filterQuery(params: Omit<ChatLogsParams, "page">) {
  return {
    search: params.search || undefined,
    plan: params.plan,
    channel: params.channel === "all" ? undefined : params.channel,
    flagged: params.flagged === "all" ? undefined : params.flagged,
    startDate: params.startDate || undefined,
    endDate: params.endDate || undefined,
    sortBy: params.sortBy,
    sortOrder: params.sortOrder,
  };
}

/** One page of the chat logs (routes.chatLogs.list). */
export async function fetchChatLogs(
  params: ChatLogsParams,
  signal?: AbortSignal,
): Promise<ChatLogsPage> {
  const answer = await callRoute(routes.chatLogs.list, {
    signal,
    query: { page: params.page, limit: CHAT_LOGS_PAGE_SIZE, ...filterQuery(params) },
  });
  return { logs: answer.data, pagination: answer.pagination };
}

export const chatLogsQuery = (params: ChatLogsParams) =>
  queryOptions({
    queryKey: chatLogsKeys.list(params),
    queryFn: ({ signal }) => fetchChatLogs(params, signal),
    placeholderData: keepPreviousData,
  });

/** One conversation's messages: page 1 holds the newest, each page oldest to newest. */
export async function fetchConversation(
  id: string,
  page: number,
  signal?: AbortSignal,
): Promise<ConversationPage> {
  const answer = await callRoute(routes.chatLogs.messages, {
    signal,
    params: { id },
    query: { page, limit: CONVERSATION_PAGE_SIZE },
  });
  return answer.data;
}

export const conversationQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: chatLogsKeys.messages(id, page),
    queryFn: ({ signal }) => fetchConversation(id, page, signal),
    placeholderData: keepPreviousData,
  });

/** Every row matching the filters, as CSV (a file route: the answer's bytes, checked by its schema). */
export async function exportChatLogs(params: Omit<ChatLogsParams, "page">): Promise<Blob> {
  const body = await callRoute(routes.chatLogs.export, {
    query: filterQuery(params),
    responseType: "blob",
    timeoutMs: EXPORT_TIMEOUT_MS,
  });
  return body as unknown as Blob;
}
