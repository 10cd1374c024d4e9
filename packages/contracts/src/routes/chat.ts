import { z } from "zod";
import { errorEnvelopeSchema } from "../api";
import {
  chatDeletedResponseSchema,
  chatPageQuerySchema,
  chatUsageResponseSchema,
  conversationIdParamsSchema,
  conversationsResponseSchema,
  dailyLimitErrorSchema,
  messagesPageResponseSchema,
  sendMessageRequestSchema,
  sendMessageResponseSchema,
} from "../chat";
import { defineRoute } from "./define";

const tags = ["chat"];
const errors = [400, 401, 403, 404];

/** The member chat with the persona (apps/server/src/modules/chat). */
export const chatRoutes = {
  send: defineRoute({
    method: "POST",
    path: "/api/chat/message",
    access: "fan",
    kind: "stream",
    tags,
    summary:
      "Sends a message to the persona. With Accept: text/event-stream the reply streams as " +
      "server-sent events (notice... when the product gives one, token..., then done or error).",
    body: sendMessageRequestSchema,
    response: sendMessageResponseSchema,
    // 428: no date of birth yet (an account older than the age gate): the web asks for it.
    otherResponses: { 403: z.union([dailyLimitErrorSchema, errorEnvelopeSchema]) },
    errors: [400, 401, 404, 428, 502],
  }),
  messages: defineRoute({
    method: "GET",
    path: "/api/chat/messages",
    access: "fan",
    tags,
    summary: "The user's messages across conversations, page 1 the newest",
    query: chatPageQuerySchema,
    response: messagesPageResponseSchema,
    errors,
  }),
  conversations: defineRoute({
    method: "GET",
    path: "/api/chat/conversations",
    access: "fan",
    tags,
    summary: "The user's conversations, the most recently active first",
    response: conversationsResponseSchema,
    errors,
  }),
  conversationMessages: defineRoute({
    method: "GET",
    path: "/api/chat/conversations/:id/messages",
    access: "fan",
    tags,
    summary: "One conversation's messages, page 1 the newest",
    params: conversationIdParamsSchema,
    query: chatPageQuerySchema,
    response: messagesPageResponseSchema,
    errors,
  }),
  deleteConversation: defineRoute({
    method: "DELETE",
    path: "/api/chat/conversations/:id",
    access: "fan",
    tags,
    summary: "Deletes one conversation and its messages",
    params: conversationIdParamsSchema,
    response: chatDeletedResponseSchema,
    errors,
  }),
  clearHistory: defineRoute({
    method: "DELETE",
    path: "/api/chat/clear-history",
    access: "fan",
    tags,
    summary: "Deletes every conversation of the user",
    response: chatDeletedResponseSchema,
    errors,
  }),
  usage: defineRoute({
    method: "GET",
    path: "/api/chat/usage",
    access: "fan",
    tags,
    summary: "Messages sent, today's count and the free messages left (or unlimited)",
    response: chatUsageResponseSchema,
    errors,
  }),
} as const;
