import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { type Clock, systemClock } from "../../lib/clock.ts";
import type { SignInListener } from "../auth/plugin.ts";
import type { AiNotices } from "../chat/ai-notice.ts";
import type { CrisisDesk } from "../chat/crisis.ts";
import type { PersonaSource } from "../chat/service.ts";
import type { MemoryService } from "../memory/service.ts";
import type { SettingsService } from "../settings/service.ts";
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

/** The other modules' services the trial uses, passed by app.ts (docs/decisions/0097). */
export interface TrialModuleDeps {
  settings: SettingsService;
  /** The chat's persona, crisis desk and AI notices' clock: the trial reuses them. */
  persona: PersonaSource;
  crisis: CrisisDesk;
  aiNotices: Pick<AiNotices, "clock">;
  /** A claimed trial's conversation may refresh the fan's memory. */
  memory: Pick<MemoryService, "noteActivity">;
  /** Adds a step to every sign-in (the accounts module's). */
  onSignIn(listener: SignInListener): void;
}

export interface TrialModuleOptions extends TrialModuleDeps {
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
      settings: options.settings,
      llm: () => app.providers.llm(),
      persona: options.persona,
      crisis: options.crisis,
      noticeClock: options.noticeClock ?? options.aiNotices.clock,
      cleanupClock: clock,
      log: app.log,
      onClaimed: (userId) => options.memory.noteActivity(userId),
      ...(options.providerTimeoutMs ? { providerTimeoutMs: options.providerTimeoutMs } : {}),
    });
    app.decorate("trial", trial);
    // Whatever way the visitor signs in from this browser, the trial becomes theirs.
    options.onSignIn(async (request, userId) => {
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
    dependencies: ["providers", "accounts", "rate-limit", "jobs"],
  },
);
