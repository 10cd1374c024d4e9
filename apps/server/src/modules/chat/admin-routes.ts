import { Readable } from "node:stream";
import {
  CHAT_LOGS_CSV_HEADER,
  type ChatLog,
  chatLogsExportQuerySchema,
  chatLogsQuerySchema,
  chatLogsResponseSchema,
  chatPageQuerySchema,
  conversationIdParamsSchema,
  messagesPageResponseSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import { ADMIN_PREFIX } from "../admin/routes.ts";
import { csvRow } from "./csv.ts";
import type { ChatService } from "./service.ts";

const errors = errorResponses(400, 401, 403, 404);
const tags = ["admin"];
const security = bearerSecurity;

function csvLine(log: ChatLog): string {
  return csvRow([
    log.startTime,
    log.user.name,
    log.user.email,
    log.character,
    log.duration,
    log.messageCount,
    log.plan,
  ]);
}

/**
 * The admin's chat logs: real conversations, searched, filtered, sorted and paged by indexed
 * queries; one conversation's messages; the CSV export. Registered behind the admin guard
 * (adminGuarded) by the chat module.
 */
export const chatLogsRoutes: FastifyPluginAsyncZod<{ chat: ChatService }> = async (
  app,
  { chat },
) => {
  app.get(
    `${ADMIN_PREFIX}/chat-logs`,
    {
      schema: {
        tags,
        security,
        summary: "Conversations, paged, searched by user name or e-mail, filtered and sorted",
        querystring: chatLogsQuerySchema,
        response: { 200: chatLogsResponseSchema, ...errors },
      },
    },
    async (request) => chat.chatLogs(request.query),
  );

  app.get(
    `${ADMIN_PREFIX}/chat-logs/export`,
    {
      schema: {
        tags,
        security,
        summary: "Every conversation matching the filters, as CSV",
        querystring: chatLogsExportQuerySchema,
        response: { ...errors },
      },
    },
    async (request, reply) => {
      const logs = chat.allChatLogs(request.query);
      async function* lines() {
        yield csvRow(CHAT_LOGS_CSV_HEADER);
        for await (const batch of logs) yield batch.map(csvLine).join("");
      }
      const date = new Date().toISOString().slice(0, 10);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="chat-logs-${date}.csv"`)
        .header("cache-control", "no-store")
        .send(Readable.from(lines()) as never);
    },
  );

  app.get(
    `${ADMIN_PREFIX}/chat-logs/:id/messages`,
    {
      schema: {
        tags,
        security,
        summary: "One conversation's messages, page 1 the newest",
        params: conversationIdParamsSchema,
        querystring: chatPageQuerySchema,
        response: { 200: messagesPageResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await chat.conversationMessages(request.params.id, undefined, request.query),
    }),
  );
};
