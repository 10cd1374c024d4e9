import { routes, VOICE_MESSAGES } from "@twinline/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { registerRoute } from "../../plugins/routes.ts";
import { AI_GENERATED_HEADER } from "../../providers/tts/ai-label.ts";
import type { VoiceService } from "./service.ts";

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

/** The voice call's REST routes (user-side spec section 7; routes.voice: requireUser from access). */
export const voiceRoutes: FastifyPluginAsyncZod<VoiceRoutesOptions> = async (
  app,
  { voice, spendPerMinute },
) => {
  // The routes that spend the operator's provider keys: per user (requireUser ran first, the
  // guard registerRoute puts before the rate limit), whatever the address
  // (docs/decisions/0040-abuse-limits.md).
  const spendRateLimit = {
    max: spendPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => `voice-user:${currentUser(request).id}`,
    errorResponseBuilder: (_request: FastifyRequest, context: { after: string }) =>
      new HttpError(429, VOICE_MESSAGES.tooManyRequests, { retryAfter: context.after }),
  };

  registerRoute(app, routes.voice.checkCredits, async (request) => ({
    success: true as const,
    ...(await voice.checkCredits(currentUser(request))),
  }));

  registerRoute(
    app,
    routes.voice.process,
    async (request, reply) => ({
      success: true as const,
      response: await voice.process(currentUser(request), request.body.text, clientGone(reply)),
    }),
    { config: { rateLimit: spendRateLimit } },
  );

  registerRoute(
    app,
    routes.voice.synthesize,
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
    { config: { rateLimit: spendRateLimit } },
  );

  registerRoute(app, routes.voice.history, async (request) => ({
    success: true as const,
    ...(await voice.history(currentUser(request), request.query)),
  }));

  registerRoute(app, routes.voice.call, async (request) => ({
    success: true as const,
    ...(await voice.callDetail(currentUser(request), request.params.id)),
  }));

  registerRoute(app, routes.voice.end, async (request) => ({
    success: true as const,
    call: await voice.end(currentUser(request), request.body.duration),
  }));
};
