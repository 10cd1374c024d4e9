import { Readable } from "node:stream";
import {
  CHAT_LOGS_CSV_HEADER,
  type ChatLog,
  chatLogsExportQuerySchema,
  chatLogsQuerySchema,
  chatLogsResponseSchema,
  chatPageQuerySchema,
  conversationIdParamsSchema,
  csvRow,
  messagesPageResponseSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ADMIN_PREFIX } from "../../plugins/admin-scope.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import type { ChatService } from "./service.ts";

const errors = errorResponses(400, 401, 403, 404);
const tags = ["admin"];
const security = bearerSecurity;

function chatLogCsvRow(log: ChatLog & { transcript: string }): string {
  return csvRow([
    log.startTime,
    log.user.name,
    log.user.email,
    log.character,
    log.duration,
    log.messageCount,
    log.plan,
    log.calls,
    log.transcript,
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
    async (request) => {
      const { logs, pagination } = await chat.chatLogs(request.query);
      return { success: true as const, data: logs, pagination };
    },
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
      // The first batch is read before the answer begins: a query the database refuses is an
      // ordinary error answer (400 or 500), never a 200 cut short.
      const batches = chat.allChatLogs(request.query)[Symbol.asyncIterator]();
      const first = await batches.next();
      async function* lines() {
        try {
          yield csvRow(CHAT_LOGS_CSV_HEADER);
          if (first.done) return;
          yield first.value.map(chatLogCsvRow).join("");
          for (let next = await batches.next(); !next.done; next = await batches.next()) {
            yield next.value.map(chatLogCsvRow).join("");
          }
        } catch (error) {
          // The status is sent already; the client sees a cut download, the log says why.
          request.log.error({ err: error }, "Chat logs CSV export failed while streaming");
          throw error;
        } finally {
          await batches.return?.(undefined);
        }
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
