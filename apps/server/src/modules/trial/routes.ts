import {
  dailyLimitErrorSchema,
  errorEnvelopeSchema,
  trialMessageRequestSchema,
  trialMessageResponseSchema,
  trialRefusalSchema,
  trialStateResponseSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../plugins/openapi.ts";
import { answerReply } from "../chat/routes.ts";
import { ensureTrialDevice, trialDevice } from "./device.ts";
import type { TrialService } from "./service.ts";

const tags = ["trial"];

/** Sends per client address and minute, beside the daily caps (the app's rate-limit store). */
export const TRIAL_RATE_LIMIT = { max: 10, timeWindow: 60_000 };

/**
 * The anonymous trial's calls (no account): GET /api/trial and POST /api/trial/message. The
 * landing page's trial chat uses them, and so can the embed page (issue 27 item 5).
 */
export const trialRoutes: FastifyPluginAsyncZod<{
  trial: TrialService;
  secureCookies: boolean;
}> = async (app, { trial, secureCookies }) => {
  app.get(
    "/api/trial",
    {
      schema: {
        tags,
        summary:
          "The anonymous trial: the allowance (0: off), what this device has left, its conversation",
        response: { 200: trialStateResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return { success: true as const, data: await trial.state(trialDevice(request)) };
    },
  );

  app.post(
    "/api/trial/message",
    {
      config: { rateLimit: TRIAL_RATE_LIMIT },
      schema: {
        tags,
        summary:
          "Sends a visitor's message to the persona without an account. With Accept: " +
          "text/event-stream the reply streams as the member chat's does. Refused with `code`: " +
          "trial_off, trial_used (403), trial_address_limit, trial_global_limit (429).",
        body: trialMessageRequestSchema,
        response: {
          200: trialMessageResponseSchema,
          ...errorResponses(400),
          403: z.union([trialRefusalSchema, dailyLimitErrorSchema, errorEnvelopeSchema]),
          429: z.union([trialRefusalSchema, errorEnvelopeSchema]),
          502: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const device = ensureTrialDevice(request, reply, secureCookies);
      const prepared = await trial.prepare(device, request.ip, request.body);
      return answerReply(request, reply, prepared.notices, (options) => prepared.reply(options));
    },
  );
};
