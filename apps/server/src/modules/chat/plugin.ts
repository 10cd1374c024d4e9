import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { adminGuarded } from "../../plugins/admin-scope.ts";
import { startCachedPersona } from "../ai-training/persona.ts";
import { chatLogsRoutes } from "./admin-routes.ts";
import { createChatRepository } from "./repository.ts";
import { chatRoutes } from "./routes.ts";
import {
  type ChatLlm,
  type ChatService,
  createChatService,
  type PersonaSource,
} from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Text chat with the persona: sends, history, limits, the admin's chat logs. */
    chat: ChatService;
    /** The persona's system prompt and knowledge passages (chat and voice call share it). */
    persona: PersonaSource;
  }
}

export interface ChatModuleOptions {
  /**
   * The persona's system prompt and knowledge passages; default: the AI training's, cached in
   * process and dropped by every AI training write (docs/decisions/0012-persona-cache.md).
   */
  persona?: PersonaSource;
  /** The LLM in force; default app.providers.llm() (stored key, environment, else offline). */
  llm?: () => Promise<ChatLlm>;
  /** The whole reply must arrive within this (default 60 s). */
  providerTimeoutMs?: number;
}

/**
 * The chat routes (/api/chat/*, behind requireUser) and the admin's chat logs (behind the admin
 * guard). Needs settings, providers and accounts registered before it.
 */
export const chatModule = fp<ChatModuleOptions>(
  async (app: FastifyInstance, options) => {
    let persona = options.persona;
    if (!persona) {
      const cached = await startCachedPersona(app.database);
      app.addHook("onClose", async () => cached.close());
      persona = cached.persona;
    }
    const chat = createChatService({
      repository: createChatRepository(app.database.db),
      settings: app.settings,
      llm: options.llm ?? (() => app.providers.llm()),
      persona,
      memory: app.memory,
      log: app.log,
      ...(options.providerTimeoutMs ? { providerTimeoutMs: options.providerTimeoutMs } : {}),
    });
    app.decorate("chat", chat);
    app.decorate("persona", persona);
    await app.register(chatRoutes, { chat });
    await app.register(adminGuarded(chatLogsRoutes), { chat });
  },
  { name: "chat", dependencies: ["settings", "providers", "accounts", "memory"] },
);
