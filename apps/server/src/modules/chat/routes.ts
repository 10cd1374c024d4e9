import { PassThrough } from "node:stream";
import {
  CHAT_MESSAGES,
  type ChatMessage,
  routes,
  type SendMessageResult,
} from "@twinline/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { registerRoute } from "../../plugins/routes.ts";
import { type ChatService, ClientGoneError, type ReplyOptions } from "./service.ts";

/** One server-sent event. */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** An AbortSignal that fires when the client goes away before the answer is complete. */
function clientGoneSignal(reply: FastifyReply): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.on("close", onClose);
  return { signal: controller.signal, release: () => reply.raw.off("close", onClose) };
}

/**
 * The answer of a chat send once it was taken: JSON, or with `Accept: text/event-stream` the
 * server-sent events (`notice`... first, `token`..., then `done` or `error`). The member chat and
 * the anonymous trial (modules/trial) answer through this one function.
 */
export function answerReply(
  request: FastifyRequest,
  reply: FastifyReply,
  notices: readonly ChatMessage[],
  run: (options: ReplyOptions) => Promise<SendMessageResult>,
) {
  const gone = clientGoneSignal(reply);

  if (!String(request.headers.accept ?? "").includes("text/event-stream")) {
    return run(gone)
      .then((data) => ({ success: true as const, data }))
      .finally(() => gone.release());
  }

  const stream = new PassThrough();
  const write = (chunk: string) => {
    if (!stream.destroyed && !stream.writableEnded) stream.write(chunk);
  };
  // The product's notices first: the fan reads them before the persona's reply.
  for (const notice of notices) write(sseEvent("notice", notice));
  run({ signal: gone.signal, onToken: (text) => write(sseEvent("token", { text })) })
    .then(
      (result) => stream.end(sseEvent("done", result)),
      (error: unknown) => {
        if (error instanceof ClientGoneError) return stream.destroy();
        if (!(error instanceof HttpError)) request.log.error({ err: error }, "Chat reply failed");
        const status = error instanceof HttpError ? error.statusCode : 502;
        const message = error instanceof HttpError ? error.message : CHAT_MESSAGES.aiFailure;
        stream.end(sseEvent("error", { message, status }));
      },
    )
    .finally(() => gone.release());
  return reply
    .header("content-type", "text/event-stream; charset=utf-8")
    .header("cache-control", "no-cache, no-transform")
    .header("x-accel-buffering", "no")
    .send(stream as never);
}

/** The member chat (routes.chat: requireUser from access). */
export const chatRoutes: FastifyPluginAsyncZod<{ chat: ChatService }> = async (app, { chat }) => {
  registerRoute(app, routes.chat.send, async (request, reply) => {
    // Refusals (bad input, the daily limit, an unknown conversation) are JSON answers.
    const prepared = await chat.prepare(currentUser(request), request.body);
    const notices = "notices" in prepared ? prepared.notices : (prepared.crisis.notices ?? []);
    return answerReply(request, reply, notices, (options) => chat.reply(prepared, options));
  });

  registerRoute(app, routes.chat.messages, async (request) => ({
    success: true as const,
    data: await chat.userMessages(currentUser(request), request.query),
  }));

  registerRoute(app, routes.chat.conversations, async (request) => ({
    success: true as const,
    data: await chat.conversations(currentUser(request)),
  }));

  registerRoute(app, routes.chat.conversationMessages, async (request) => ({
    success: true as const,
    data: await chat.conversationMessages(
      request.params.id,
      currentUser(request).id,
      request.query,
    ),
  }));

  registerRoute(app, routes.chat.deleteConversation, async (request) => {
    await chat.deleteConversation(currentUser(request), request.params.id);
    return { success: true as const, message: CHAT_MESSAGES.conversationDeleted };
  });

  registerRoute(app, routes.chat.clearHistory, async (request) => {
    await chat.clearHistory(currentUser(request));
    return { success: true as const, message: CHAT_MESSAGES.historyCleared };
  });

  registerRoute(app, routes.chat.usage, async (request) => ({
    success: true as const,
    data: await chat.usage(currentUser(request)),
  }));
};
