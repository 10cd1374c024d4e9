import {
  chatLogsExportQuerySchema,
  chatLogsQuerySchema,
  chatLogsResponseSchema,
  chatPageQuerySchema,
  conversationIdParamsSchema,
  messagesPageResponseSchema,
} from "../chat";
import { crisisReferralsQuerySchema, crisisReferralsResponseSchema } from "../crisis";
import { defineRoute } from "./define";
import { fileAnswerSchema } from "./files";

const tags = ["admin"];
const errors = [400, 401, 403, 404];

/** The admin's chat logs and the crisis referral figures (apps/server/src/modules/chat). */
export const chatLogsRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/api/admin/chat-logs",
    access: "admin",
    tags,
    summary: "Conversations, paged, searched by user name or e-mail, filtered and sorted",
    query: chatLogsQuerySchema,
    response: chatLogsResponseSchema,
    errors,
  }),
  messages: defineRoute({
    method: "GET",
    path: "/api/admin/chat-logs/:id/messages",
    access: "admin",
    tags,
    summary: "One conversation's messages, page 1 the newest",
    params: conversationIdParamsSchema,
    query: chatPageQuerySchema,
    response: messagesPageResponseSchema,
    errors,
  }),
  crisisReferrals: defineRoute({
    method: "GET",
    path: "/api/admin/analytics/crisis-referrals",
    access: "admin",
    tags,
    summary: "Crisis referrals per UTC day over the last `days` days (no personal data)",
    query: crisisReferralsQuerySchema,
    response: crisisReferralsResponseSchema,
    errors: [400, 401, 403],
  }),
  /** The CSV downloads: files (`kind: "file"`), streamed by the server. */
  export: defineRoute({
    method: "GET",
    path: "/api/admin/chat-logs/export",
    access: "admin",
    kind: "file",
    tags,
    summary: "Every conversation matching the filters, as CSV",
    query: chatLogsExportQuerySchema,
    response: fileAnswerSchema,
    errors,
  }),
  crisisReferralsExport: defineRoute({
    method: "GET",
    path: "/api/admin/analytics/crisis-referrals/export",
    access: "admin",
    kind: "file",
    tags,
    summary: "Crisis referrals per UTC day over the last `days` days, as CSV",
    query: crisisReferralsQuerySchema,
    response: fileAnswerSchema,
    errors: [400, 401, 403],
  }),
} as const;
