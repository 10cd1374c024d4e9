import { routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { registerRoute } from "../../plugins/routes.ts";
import { answerReply } from "../chat/routes.ts";
import { ensureTrialDevice, trialDevice } from "./device.ts";
import type { TrialService } from "./service.ts";

/** Sends per client address and minute, beside the daily caps (the app's rate-limit store). */
export const TRIAL_RATE_LIMIT = { max: 10, timeWindow: 60_000 };

/**
 * The anonymous trial's calls (no account, routes.trial). The landing page's trial chat uses
 * them, and so can the embed page (issue 27 item 5).
 */
export const trialRoutes: FastifyPluginAsync<{
  trial: TrialService;
  secureCookies: boolean;
}> = async (app, { trial, secureCookies }) => {
  registerRoute(app, routes.trial.state, async (request, reply) => {
    reply.header("cache-control", "no-store");
    return { success: true as const, data: await trial.state(trialDevice(request)) };
  });

  registerRoute(
    app,
    routes.trial.message,
    async (request, reply) => {
      const device = ensureTrialDevice(request, reply, secureCookies);
      const prepared = await trial.prepare(device, request.ip, request.body);
      return answerReply(request, reply, prepared.notices, (options) => prepared.reply(options));
    },
    { config: { rateLimit: TRIAL_RATE_LIMIT } },
  );
};
