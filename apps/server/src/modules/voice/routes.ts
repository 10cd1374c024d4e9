import {
  callDetailResponseSchema,
  callHistoryQuerySchema,
  callHistoryResponseSchema,
  callIdParamsSchema,
  checkCreditsResponseSchema,
  endCallRequestSchema,
  endCallResponseSchema,
  errorEnvelopeSchema,
  processTextRequestSchema,
  processTextResponseSchema,
  synthesizeRequestSchema,
  VOICE_MESSAGES,
} from "@twinline/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import { AI_GENERATED_HEADER } from "../../providers/tts/ai-label.ts";
import type { VoiceService } from "./service.ts";

const errors = errorResponses(400, 401, 403);
const spendErrors = errorResponses(400, 401, 402, 403, 429);
const tags = ["voice"];
const security = bearerSecurity;

/** Aborted when the client goes away before the answer is sent. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on("close", () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

export interface VoiceRoutesOptions {
  voice: VoiceService;
  /** POST synthesize and process, each: requests per user per minute. */
  spendPerMinute: number;
}

/** The voice call's REST routes (user-side spec section 7), behind requireUser. */
export const voiceRoutes: FastifyPluginAsyncZod<VoiceRoutesOptions> = async (
  app,
  { voice, spendPerMinute },
) => {
  app.addHook("onRequest", app.requireUser);
  // The routes that spend the operator's provider keys: per user (requireUser ran first, as
  // the context's hook), whatever the address (docs/decisions/0040-abuse-limits.md).
  const spendRateLimit = {
    max: spendPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => `voice-user:${currentUser(request).id}`,
    errorResponseBuilder: (_request: FastifyRequest, context: { after: string }) =>
      new HttpError(429, VOICE_MESSAGES.tooManyRequests, { retryAfter: context.after }),
  };

  app.get(
    "/api/voice-call/check-credits",
    {
      schema: {
        tags,
        security,
        summary: "The user's credits, the rate per minute, and whether a call can start",
        response: { 200: checkCreditsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await voice.checkCredits(currentUser(request))),
    }),
  );

  app.post(
    "/api/voice-call/process",
    {
      schema: {
        tags,
        security,
        summary: "The persona's reply to a text, by the call's LLM path",
        body: processTextRequestSchema,
        response: { 200: processTextResponseSchema, ...spendErrors, 502: errorEnvelopeSchema },
      },
      config: { rateLimit: spendRateLimit },
    },
    async (request, reply) => ({
      success: true as const,
      response: await voice.process(currentUser(request), request.body.text, clientGone(reply)),
    }),
  );

  app.post(
    "/api/voice-call/synthesize",
    {
      schema: {
        tags,
        security,
        summary: "A text spoken in the persona's voice: audio bytes (audio/mpeg or audio/wav)",
        body: synthesizeRequestSchema,
        response: { ...spendErrors, 502: errorEnvelopeSchema },
      },
      config: { rateLimit: spendRateLimit },
    },
    async (request, reply) => {
      const spoken = await voice.synthesize(
        currentUser(request),
        request.body.text,
        clientGone(reply),
      );
      return reply
        .header("content-type", spoken.format)
        .header(AI_GENERATED_HEADER, "true")
        .header("cache-control", "no-store")
        .send(spoken.audio as never);
    },
  );

  app.get(
    "/api/voice-call/history",
    {
      schema: {
        tags,
        security,
        summary: "The user's calls, newest first",
        querystring: callHistoryQuerySchema,
        response: { 200: callHistoryResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await voice.history(currentUser(request), request.query)),
    }),
  );

  app.get(
    "/api/voice-call/calls/:id",
    {
      schema: {
        tags,
        security,
        summary: "One of the user's calls and its stored transcript",
        params: callIdParamsSchema,
        response: { 200: callDetailResponseSchema, ...errors, 404: errorEnvelopeSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await voice.callDetail(currentUser(request), request.params.id)),
    }),
  );

  app.post(
    "/api/voice-call/end",
    {
      schema: {
        tags,
        security,
        summary:
          "Closes the user's call with the reported duration (the server's measure is billed); " +
          "a retry answers the same record",
        body: endCallRequestSchema,
        response: { 200: endCallResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      call: await voice.end(currentUser(request), request.body.duration),
    }),
  );
};
