import { PassThrough } from "node:stream";
import {
  CHAT_MESSAGES,
  type ChatMessage,
  chatDeletedResponseSchema,
  chatPageQuerySchema,
  chatUsageResponseSchema,
  conversationIdParamsSchema,
  conversationsResponseSchema,
  dailyLimitErrorSchema,
  errorEnvelopeSchema,
  messagesPageResponseSchema,
  type SendMessageResult,
  sendMessageRequestSchema,
  sendMessageResponseSchema,
} from "@twinline/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentUser } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import { type ChatService, ClientGoneError, type ReplyOptions } from "./service.ts";

const errors = errorResponses(400, 401, 403, 404);
const tags = ["chat"];
const security = bearerSecurity;

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

export const chatRoutes: FastifyPluginAsyncZod<{ chat: ChatService }> = async (app, { chat }) => {
  app.addHook("onRequest", app.requireUser);

  app.post(
    "/api/chat/message",
    {
      schema: {
        tags,
        security,
        summary:
          "Sends a message to the persona. With Accept: text/event-stream the reply streams as " +
          "server-sent events (notice... when the product gives one, token..., then done or error).",
        body: sendMessageRequestSchema,
        response: {
          200: sendMessageResponseSchema,
          ...errors,
          403: z.union([dailyLimitErrorSchema, errorEnvelopeSchema]),
          // No date of birth yet (an account older than the age gate): the web asks for it.
          428: errorEnvelopeSchema,
          502: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      // Refusals (bad input, the daily limit, an unknown conversation) are JSON answers.
      const prepared = await chat.prepare(currentUser(request), request.body);
      const notices = "notices" in prepared ? prepared.notices : (prepared.crisis.notices ?? []);
      return answerReply(request, reply, notices, (options) => chat.reply(prepared, options));
    },
  );

  app.get(
    "/api/chat/messages",
    {
      schema: {
        tags,
        security,
        summary: "The user's messages across conversations, page 1 the newest",
        querystring: chatPageQuerySchema,
        response: { 200: messagesPageResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await chat.userMessages(currentUser(request), request.query),
    }),
  );

  app.get(
    "/api/chat/conversations",
    {
      schema: {
        tags,
        security,
        summary: "The user's conversations, the most recently active first",
        response: { 200: conversationsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await chat.conversations(currentUser(request)),
    }),
  );

  app.get(
    "/api/chat/conversations/:id/messages",
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
      data: await chat.conversationMessages(
        request.params.id,
        currentUser(request).id,
        request.query,
      ),
    }),
  );

  app.delete(
    "/api/chat/conversations/:id",
    {
      schema: {
        tags,
        security,
        summary: "Deletes one conversation and its messages",
        params: conversationIdParamsSchema,
        response: { 200: chatDeletedResponseSchema, ...errors },
      },
    },
    async (request) => {
      await chat.deleteConversation(currentUser(request), request.params.id);
      return { success: true as const, message: CHAT_MESSAGES.conversationDeleted };
    },
  );

  app.delete(
    "/api/chat/clear-history",
    {
      schema: {
        tags,
        security,
        summary: "Deletes every conversation of the user",
        response: { 200: chatDeletedResponseSchema, ...errors },
      },
    },
    async (request) => {
      await chat.clearHistory(currentUser(request));
      return { success: true as const, message: CHAT_MESSAGES.historyCleared };
    },
  );

  app.get(
    "/api/chat/usage",
    {
      schema: {
        tags,
        security,
        summary: "Messages sent, today's count and the free messages left (or unlimited)",
        response: { 200: chatUsageResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await chat.usage(currentUser(request)) }),
  );
};
