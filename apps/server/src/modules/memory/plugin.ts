import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createMemoryRepository } from "./repository.ts";
import { memoryRoutes } from "./routes.ts";
import { createMemoryService, type MemoryService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** What the persona remembers of each fan (chat and calls share it). */
    memory: MemoryService;
  }
}

/** Long-term memory and the fan's /api/memory routes. Needs settings, providers and accounts. */
export const memoryModule = fp(
  async (app: FastifyInstance) => {
    const memory = createMemoryService({
      repository: createMemoryRepository(app.database.db),
      settings: app.settings,
      llm: () => app.providers.llm(),
      log: app.log,
    });
    app.decorate("memory", memory);
    // Summaries under way finish while the database is still open.
    app.addHook("preClose", async () => memory.idle());
    await app.register(memoryRoutes, { memory });
  },
  { name: "memory", dependencies: ["settings", "providers", "accounts"] },
);
