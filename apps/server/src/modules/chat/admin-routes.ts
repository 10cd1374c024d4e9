import { Readable } from "node:stream";
import { CHAT_LOGS_CSV_HEADER, type ChatLog, csvRow, routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { registerRoute } from "../../plugins/routes.ts";
import type { ChatService } from "./service.ts";

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
 * queries; one conversation's messages; the CSV export. Guarded by their definitions' access
 * (admin), registered by the chat module.
 */
export const chatLogsRoutes: FastifyPluginAsync<{ chat: ChatService }> = async (app, { chat }) => {
  registerRoute(app, routes.chatLogs.list, async (request) => {
    const { logs, pagination } = await chat.chatLogs(request.query);
    return { success: true as const, data: logs, pagination };
  });

  registerRoute(app, routes.chatLogs.export, async (request, reply) => {
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
  });

  registerRoute(app, routes.chatLogs.messages, async (request) => ({
    success: true as const,
    data: await chat.conversationMessages(request.params.id, undefined, request.query),
  }));
};
