import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { type Clock, systemClock } from "../../lib/clock.ts";
import { startCachedPersona } from "../ai-training/persona.ts";
import type { MemoryService } from "../memory/service.ts";
import type { Push } from "../push/plugin.ts";
import type { SettingsService } from "../settings/service.ts";
import { chatLogsRoutes } from "./admin-routes.ts";
import { type AiNotices, createAiNotices } from "./ai-notice.ts";
import { type CrisisDesk, createCrisisDesk } from "./crisis.ts";
import { crisisReferralsRoutes } from "./crisis-admin-routes.ts";
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
    /** The crisis check and referral (issue 25): chat sends and call turns alike. */
    crisis: CrisisDesk;
    /** The persona's system prompt and knowledge passages (chat and voice call share it). */
    persona: PersonaSource;
    /** The AI notice and break reminders of chat and call (ai-notice.ts). */
    aiNotices: AiNotices;
  }
}

/** The other modules' services chat uses, passed by app.ts (docs/decisions/0097). */
export interface ChatModuleDeps {
  settings: SettingsService;
  memory: MemoryService;
  /** The "reply while away" notification. */
  push: Pick<Push, "replySaved">;
}

export interface ChatModuleOptions extends ChatModuleDeps {
  /**
   * The persona's system prompt and knowledge passages; default: the AI training's, cached in
   * process and dropped by every AI training write (docs/decisions/0012-persona-cache.md).
   */
  persona?: PersonaSource;
  /** The LLM in force; default app.providers.llm() (stored key, environment, else offline). */
  llm?: () => Promise<ChatLlm>;
  /** The whole reply must arrive within this (default 60 s). */
  providerTimeoutMs?: number;
  /** The clock of sittings, AI notices and break reminders (tests move a manual one). */
  noticeClock?: Clock;
}

/**
 * The chat routes (/api/chat/*, behind requireUser) and the admin's chat logs (behind the admin
 * guard). Needs providers and accounts registered before it.
 */
export const chatModule = fp<ChatModuleOptions>(
  async (app: FastifyInstance, options) => {
    const { settings, memory, push } = options;
    let persona = options.persona;
    if (!persona) {
      const cached = await startCachedPersona(app.database);
      app.addHook("onClose", async () => cached.close());
      persona = cached.persona;
    }
    const crisis = createCrisisDesk({
      db: app.database.db,
      settings,
      moderation: () => app.providers.moderation(),
      log: app.log,
    });
    const aiNotices = createAiNotices({
      db: app.database.db,
      clock: options.noticeClock ?? systemClock,
      settings,
    });
    const chat = createChatService({
      repository: createChatRepository(app.database.db),
      settings,
      llm: options.llm ?? (() => app.providers.llm()),
      persona,
      memory,
      notices: aiNotices,
      crisis,
      // The "reply while away" notification (issue 27 item 3): queued, then sent at once.
      onReplySaved: (userId, conversationId, messageId) =>
        push.replySaved(userId, conversationId, messageId),
      log: app.log,
      ...(options.providerTimeoutMs ? { providerTimeoutMs: options.providerTimeoutMs } : {}),
    });
    app.decorate("chat", chat);
    app.decorate("crisis", crisis);
    app.decorate("persona", persona);
    app.decorate("aiNotices", aiNotices);
    await app.register(chatRoutes, { chat });
    await app.register(chatLogsRoutes, { chat });
    await app.register(crisisReferralsRoutes, { db: app.database.db });
  },
  { name: "chat", dependencies: ["providers", "accounts"] },
);
