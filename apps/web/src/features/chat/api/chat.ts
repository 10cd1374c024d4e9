import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import {
  type ChatMessage,
  type ChatUsage,
  chatStreamEventSchemas,
  type Pagination,
  routes,
  type SendMessageResult,
} from "@twinline/contracts";
import {
  ApiError,
  callRoute,
  errorMessage,
  streamRoute,
  type TypedStreamEvent,
} from "@/lib/api-client";
import { CHAT_CACHE_MS, CHAT_PAGE_SIZE, CHAT_STALE_MS, CHAT_TEXT } from "../messages";

export interface MessagesPage {
  messages: ChatMessage[];
  pagination: Pagination;
}

export const chatKeys = {
  all: ["chat"] as const,
  messages: ["chat", "messages"] as const,
  usage: ["chat", "usage"] as const,
};

/** routes.chat.messages: page 1 holds the newest messages, each page oldest to newest. */
export async function fetchMessagesPage(page: number, signal?: AbortSignal): Promise<MessagesPage> {
  const answer = await callRoute(routes.chat.messages, {
    signal,
    query: { page, limit: CHAT_PAGE_SIZE },
  });
  return answer.data;
}

export const messagesQuery = () =>
  infiniteQueryOptions({
    queryKey: chatKeys.messages,
    queryFn: ({ pageParam, signal }) => fetchMessagesPage(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last: MessagesPage) =>
      last.pagination.page < last.pagination.pages ? last.pagination.page + 1 : undefined,
    staleTime: CHAT_STALE_MS,
    gcTime: CHAT_CACHE_MS,
  });

/** routes.chat.usage: messages sent, today's free messages left or "unlimited". */
export async function fetchUsage(signal?: AbortSignal): Promise<ChatUsage> {
  const answer = await callRoute(routes.chat.usage, { signal });
  return answer.data;
}

export const usageQuery = () =>
  queryOptions({
    queryKey: chatKeys.usage,
    queryFn: ({ signal }) => fetchUsage(signal),
    staleTime: CHAT_STALE_MS,
    gcTime: CHAT_CACHE_MS,
  });

/** routes.chat.clearHistory. */
export async function clearHistory(): Promise<void> {
  await callRoute(routes.chat.clearHistory);
}

/**
 * The provider failed after the server took the message (an `error` event, or a stream that
 * ended without `done`): the user's message is kept on the server.
 */
export class ChatStreamError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

export interface SendOptions {
  /** The anonymous trial's send (routes.trial.message); the member chat's (routes.chat.send) when absent. */
  route?: typeof routes.trial.message | typeof routes.chat.send;
  message: string;
  conversationId?: string | null;
  signal?: AbortSignal;
  /** Each piece of the reply, as it streams. */
  onToken: (text: string) => void;
  /** A notice of the product (the AI notice, a break reminder), before the reply. */
  onNotice?: (notice: ChatMessage) => void;
}

/**
 * routes.chat.send (or the trial's) with `Accept: text/event-stream`: the reply streams through `onToken`
 * and the call resolves to the `done` event's result. A server answering plain JSON works too.
 */
export async function sendChatMessage({
  route,
  message,
  conversationId,
  signal,
  onToken,
  onNotice,
}: SendOptions): Promise<SendMessageResult> {
  const got: { result: SendMessageResult | null; failure: ChatStreamError | null } = {
    result: null,
    failure: null,
  };
  const request = {
    body: conversationId ? { message, conversationId } : { message },
    signal,
    events: chatStreamEventSchemas,
    onEvent: (event: TypedStreamEvent<typeof chatStreamEventSchemas>) => {
      if (event.event === "token") onToken(event.data.text);
      else if (event.event === "notice") onNotice?.(event.data);
      else if (event.event === "done") got.result = event.data;
      else if (event.event === "error") {
        got.failure = new ChatStreamError(event.data.message, event.data.status);
      }
    },
  };
  const outcome = await streamRoute(route ?? routes.chat.send, request);
  if (!outcome.streamed) {
    onToken(outcome.body.data.response);
    return outcome.body.data;
  }
  if (got.failure) throw got.failure;
  if (!got.result) throw new ChatStreamError(CHAT_TEXT.failedAiResponse, 502);
  return got.result;
}

export type SendFailure =
  | { kind: "limit"; dailyLimit: number }
  /** `kept`: the server holds the user's message, so the text is not given back. */
  | { kind: "failed"; kept: boolean; toast: string };

/** How the screen answers a failed send (user-side spec, section 8). */
export function classifySendFailure(error: unknown, fallbackLimit: number): SendFailure {
  if (error instanceof ChatStreamError) {
    return { kind: "failed", kept: true, toast: CHAT_TEXT.failedAiResponse };
  }
  if (error instanceof ApiError && error.kind === "http") {
    const body = (error.body ?? {}) as { error?: unknown; dailyLimit?: unknown };
    if (
      error.status === 403 &&
      typeof body.error === "string" &&
      body.error.includes("Daily free message limit")
    ) {
      const dailyLimit = typeof body.dailyLimit === "number" ? body.dailyLimit : fallbackLimit;
      return { kind: "limit", dailyLimit };
    }
    if (error.status === 502 || error.status >= 500) {
      return { kind: "failed", kept: error.status === 502, toast: CHAT_TEXT.failedAiResponse };
    }
    return { kind: "failed", kept: false, toast: errorMessage(error, CHAT_TEXT.failedAiResponse) };
  }
  if (error instanceof ApiError && error.kind === "invalid-response") {
    // The server took the message but its answer is off the contract.
    return { kind: "failed", kept: true, toast: CHAT_TEXT.failedAiResponse };
  }
  return { kind: "failed", kept: false, toast: CHAT_TEXT.aiServiceError };
}
