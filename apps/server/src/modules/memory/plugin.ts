import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { SettingsService } from "../settings/service.ts";
import { createMemoryRepository } from "./repository.ts";
import { memoryRoutes } from "./routes.ts";
import {
  createMemoryService,
  type MemoryService,
  SUMMARY_JOB,
  type SummaryJob,
} from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** What the persona remembers of each fan (chat and calls share it). */
    memory: MemoryService;
  }
}

/** The other modules' services memory uses, passed by app.ts (docs/decisions/0097). */
export interface MemoryModuleDeps {
  settings: SettingsService;
}

/** Long-term memory and the fan's /api/memory routes. Needs providers and accounts. */
export const memoryModule = fp<MemoryModuleDeps>(
  async (app: FastifyInstance, { settings }) => {
    const memory = createMemoryService({
      repository: createMemoryRepository(app.database.db),
      settings,
      llm: () => app.providers.llm(),
      jobs: app.jobs,
      log: app.log,
    });
    app.decorate("memory", memory);
    // A durable job (docs/decisions/0072): a burst of replies queues one refresh per fan (the
    // "short" policy keeps one waiting per key); a model that fails is retried with backoff
    // (waits doubling from 30 s), then the job goes to memory.summary.dead.
    app.jobs.define<SummaryJob>(SUMMARY_JOB, (job) => memory.refresh(job), {
      policy: "short",
      retryLimit: 3,
      retryDelaySeconds: 30,
      expireInSeconds: 5 * 60,
    });
    // Checks under way queue their job while the database is still open.
    app.addHook("preClose", async () => memory.idle());
    await app.register(memoryRoutes, { memory });
  },
  { name: "memory", dependencies: ["providers", "accounts", "jobs"] },
);
