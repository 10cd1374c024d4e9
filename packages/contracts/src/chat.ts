import { z } from "zod";
import { paginationSchema } from "./api";
import { crisisSupportSchema, messageFlagSchema } from "./crisis";
import { queryDate } from "./query-dates";
import { safeText } from "./text";

export const CHAT_MESSAGES = {
  dailyLimitError: "Daily free message limit reached",
  aiFailure: "Failed to get AI response",
  emptyMessage: "Message cannot be empty",
  tooManyWords: (limit: number) => `Messages cannot exceed ${limit} words`,
  conversationNotFound: "Conversation not found",
  historyCleared: "Chat history cleared",
  conversationDeleted: "Conversation deleted",
} as const;

/** Words as the spec counts them: runs of non-space characters. Shared so client and server agree. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed ? trimmed.split(/\s+/u).length : 0;
}

/**
 * Who wrote a message: the fan, the persona, or the product itself. A product message (the AI
 * notice, a break reminder, the crisis support message) is never sent to the model and costs
 * nothing; `productKind` says which (issue 25).
 */
export const CHAT_SENDERS = ["user", "ai", "product"] as const;
export type ChatSender = (typeof CHAT_SENDERS)[number];
export const PRODUCT_MESSAGE_KINDS = ["ai-notice", "break-reminder", "crisis-support"] as const;
export type ProductMessageKind = (typeof PRODUCT_MESSAGE_KINDS)[number];

export const chatMessageSchema = z.object({
  _id: z.string(),
  conversationId: z.string(),
  sender: z.enum(CHAT_SENDERS),
  /** Set on product messages only: which notice this is. */
  productKind: z.enum(PRODUCT_MESSAGE_KINDS).nullable().optional(),
  content: z.string(),
  timestamp: z.string(),
  /** Set on a user's message the persona could not answer. */
  replyFailed: z.boolean().optional(),
  /** A turn of this voice call (the fan's transcribed words or the persona's spoken reply). */
  callId: z.string().nullable().optional(),
  /** The call's duration in seconds once it ended (call turns only). */
  callDuration: z.number().int().nullable().optional(),
  /**
   * The admin's chat logs only: the crisis check flagged this message (a fan's words, or the
   * persona's reply the crisis message replaced), with its category.
   */
  flag: messageFlagSchema.nullable().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const sendMessageRequestSchema = z.object({
  message: safeText().max(20_000, { error: "Message is too long" }),
  conversationId: z.uuid({ error: "Invalid conversation id" }).nullish(),
});
export type SendMessageRequest = z.infer<typeof sendMessageRequestSchema>;

/** The answer of POST /api/chat/message, and the payload of the stream's final `done` event. */
export const sendMessageResultSchema = z.object({
  response: z.string(),
  conversationId: z.string(),
  userMessage: chatMessageSchema,
  aiMessage: chatMessageSchema,
  /** Free messages left today after this one, or "unlimited". */
  remaining: z.union([z.number().int(), z.literal("unlimited")]),
  /**
   * The crisis check fired: `aiMessage` is the product's caring message (not the persona's
   * reply), these resources stay pinned in the chat; the turn cost nothing.
   */
  crisis: crisisSupportSchema.optional(),
  /**
   * Product messages given with this message (issue 25): the AI notice at the start of a
   * conversation or sitting and every 3 hours, a break reminder after 3 hours of continuous use.
   * Stored after the fan's message, before the reply; free, never sent to the model.
   */
  notices: z.array(chatMessageSchema).optional(),
});
export type SendMessageResult = z.infer<typeof sendMessageResultSchema>;
export const sendMessageResponseSchema = z.object({
  success: z.literal(true),
  data: sendMessageResultSchema,
});

/**
 * With `Accept: text/event-stream`, POST /api/chat/message answers server-sent events:
 * `notice` (ChatMessage, a product message, issue 25) before the reply when one is given,
 * `token` { text } for each piece of the reply, then `done` (SendMessageResult), or `error`
 * { message, status } when the provider fails after the stream began (the user's message is kept).
 * Refusals before any reply (bad input, the daily limit) are ordinary JSON error answers.
 */
export const chatStreamEventSchemas = {
  notice: chatMessageSchema,
  token: z.object({ text: z.string() }),
  done: sendMessageResultSchema,
  error: z.object({ message: z.string(), status: z.number().int() }),
} as const;

/** The 403 answer once a free user has used today's messages. */
export const dailyLimitErrorSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  error: z.literal(CHAT_MESSAGES.dailyLimitError),
  dailyLimit: z.number().int(),
});

export const chatPageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** Page 1 holds the newest messages; inside a page they run oldest to newest. */
export const messagesPageResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ messages: z.array(chatMessageSchema), pagination: paginationSchema }),
});

/** The {id} of /api/chat/conversations/{id}/... and /api/admin/chat-logs/{id}/messages. */
export const conversationIdParamsSchema = z.object({
  id: z.uuid({ error: "Invalid conversation id" }),
});

/** DELETE /api/chat/conversations/{id} and DELETE /api/chat/clear-history. */
export const chatDeletedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});

export const conversationSchema = z.object({
  _id: z.string(),
  title: z.string(),
  startedAt: z.string(),
  lastMessageAt: z.string(),
  messageCount: z.number().int(),
});
export type Conversation = z.infer<typeof conversationSchema>;
export const conversationsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(conversationSchema),
});

/** GET /api/chat/usage: the figures the chat screen and the dashboard show. */
export const chatUsageSchema = z.object({
  total: z.number().int(),
  sentToday: z.number().int(),
  dailyLimit: z.number().int(),
  remaining: z.union([z.number().int(), z.literal("unlimited")]),
});
export type ChatUsage = z.infer<typeof chatUsageSchema>;
export const chatUsageResponseSchema = z.object({
  success: z.literal(true),
  data: chatUsageSchema,
});

// Admin chat logs: real conversations, searched, filtered and paged on the server.

export const chatLogsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  search: safeText().trim().max(200).optional(),
  plan: z.enum(["all", "premium", "standard"]).default("all"),
  startDate: queryDate("startDate must be a date (yyyy-MM-dd)").optional(),
  endDate: queryDate("endDate must be a date (yyyy-MM-dd)").optional(),
  /** chat: conversations with no call; call: conversations holding a voice call's turns. */
  channel: z.enum(["all", "chat", "call"]).default("all"),
  /** flagged: conversations holding a message the crisis check flagged. */
  flagged: z.enum(["all", "flagged"]).default("all"),
  sortBy: z.enum(["startTime", "lastMessageAt", "messageCount", "duration"]).default("startTime"),
  sortOrder: z.coerce
    .number()
    .int()
    .refine((v) => v === 1 || v === -1, { error: "sortOrder must be 1 or -1" })
    .default(-1),
});
export type ChatLogsQuery = z.infer<typeof chatLogsQuerySchema>;

/** GET /api/admin/chat-logs/export: the list's filters and sort, every matching row. */
export const chatLogsExportQuerySchema = chatLogsQuerySchema.omit({ page: true, limit: true });
export type ChatLogsExportQuery = z.infer<typeof chatLogsExportQuerySchema>;

/** The CSV export's header row, in column order. */
export const CHAT_LOGS_CSV_HEADER = [
  "Start Time",
  "User Name",
  "User Email",
  "Character",
  "Duration (s)",
  "Messages",
  "Plan",
  "Calls",
  "Call Transcript",
] as const;

export const chatLogSchema = z.object({
  _id: z.string(),
  user: z.object({
    _id: z.string(),
    name: z.string(),
    email: z.string(),
    profileImage: z.string().nullable(),
  }),
  character: z.string(),
  startTime: z.string(),
  lastMessageAt: z.string(),
  /** Seconds from the first to the last message. */
  duration: z.number().int(),
  messageCount: z.number().int(),
  plan: z.enum(["premium", "standard"]),
  /** Voice calls whose turns are in this conversation. */
  calls: z.number().int(),
  /** Messages of it the crisis check flagged. */
  flagged: z.number().int().optional(),
});
export type ChatLog = z.infer<typeof chatLogSchema>;
export const chatLogsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(chatLogSchema),
  pagination: paginationSchema,
});
