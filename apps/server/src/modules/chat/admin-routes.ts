import { CHAT_LOGS_CSV_HEADER, type ChatLog, type CsvValue, routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { sendCsvDownload } from "../../lib/csv-download.ts";
import { registerRoute } from "../../plugins/routes.ts";
import type { ChatService } from "./service.ts";

function chatLogCsvRow(log: ChatLog & { transcript: string }): CsvValue[] {
  return [
    log.startTime,
    log.user.name,
    log.user.email,
    log.character,
    log.duration,
    log.messageCount,
    log.plan,
    log.calls,
    log.transcript,
  ];
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

  registerRoute(app, routes.chatLogs.export, (request, reply) =>
    sendCsvDownload(request, reply, {
      name: "chat-logs",
      header: CHAT_LOGS_CSV_HEADER,
      toRow: chatLogCsvRow,
      batches: chat.allChatLogs(request.query),
    }),
  );

  registerRoute(app, routes.chatLogs.messages, async (request) => ({
    success: true as const,
    data: await chat.conversationMessages(request.params.id, undefined, request.query),
  }));
};
