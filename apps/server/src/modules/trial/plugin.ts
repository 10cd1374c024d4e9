import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { type Clock, systemClock } from "../../lib/clock.ts";
import { trialDevice } from "./device.ts";
import { createTrialRepository } from "./repository.ts";
import { trialRoutes } from "./routes.ts";
import { createTrialService, type TrialService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The anonymous trial of the landing page (issue 27 item 1). */
    trial: TrialService;
  }
}

export const TRIAL_CLEANUP_JOB = "trial.cleanup";
/** Daily, at a quiet hour (UTC). */
export const TRIAL_CLEANUP_CRON = "23 3 * * *";

export interface TrialModuleOptions {
  secureCookies: boolean;
  /** The clock of sittings (the member chat's notice clock). */
  noticeClock?: Clock;
  /** The clock of the days counted and of the clean-up job (the jobs' clock). */
  clock?: Clock;
  providerTimeoutMs?: number;
}

/**
 * Try before sign-up (docs/decisions/0084-anonymous-trial.md): the trial's routes, the hand-over
 * at every sign-in (accounts' onSignIn), and the daily clean-up of abandoned trials on the job
 * queue. Reuses the chat module's persona, model, AI notice rule and crisis desk.
 */
export const trialModule = fp<TrialModuleOptions>(
  async (app: FastifyInstance, options) => {
    const clock = options.clock ?? systemClock;
    const trial = createTrialService({
      repository: createTrialRepository(app.database.db),
      settings: app.settings,
      llm: () => app.providers.llm(),
      persona: app.persona,
      crisis: app.crisis,
      noticeClock: options.noticeClock ?? app.aiNotices.clock,
      cleanupClock: clock,
      log: app.log,
      onClaimed: (userId) => app.memory.noteActivity(userId),
      ...(options.providerTimeoutMs ? { providerTimeoutMs: options.providerTimeoutMs } : {}),
    });
    app.decorate("trial", trial);
    // Whatever way the visitor signs in from this browser, the trial becomes theirs.
    app.onSignIn(async (request, userId) => {
      const device = trialDevice(request);
      if (device) await trial.claim(device, userId);
    });
    await app.register(trialRoutes, { trial, secureCookies: options.secureCookies });
    app.jobs.define(TRIAL_CLEANUP_JOB, () => trial.deleteAbandoned(), {
      cron: TRIAL_CLEANUP_CRON,
      clock,
      retryLimit: 2,
      retryDelaySeconds: 60,
      expireInSeconds: 15 * 60,
    });
  },
  {
    name: "trial",
    dependencies: ["settings", "providers", "accounts", "chat", "memory", "rate-limit", "jobs"],
  },
);
