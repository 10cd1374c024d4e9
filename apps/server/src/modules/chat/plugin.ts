import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Database, DatabaseConnection } from "../../db/client.ts";
import { adminGuarded } from "../admin/routes.ts";
import { createAiTrainingRepository } from "../ai-training/repository.ts";
import { findRelevantPassages } from "../ai-training/retrieval.ts";
import { chatLogsRoutes } from "./admin-routes.ts";
import { createChatRepository } from "./repository.ts";
import { chatRoutes } from "./routes.ts";
import {
  type ChatLlm,
  type ChatService,
  createChatService,
  type PersonaSource,
} from "./service.ts";

/** The admin's system prompt and the knowledge retrieval of the AI training. */
function aiTrainingPersona(db: Database): PersonaSource {
  const training = createAiTrainingRepository(db);
  return {
    systemPrompt: async () => (await training.read()).systemPrompt,
    passages: async (question, limit) =>
      (await findRelevantPassages(db, question, limit)).map((passage) => passage.content),
  };
}

declare module "fastify" {
  interface FastifyInstance {
    /** Text chat with the persona: sends, history, limits, the admin's chat logs. */
    chat: ChatService;
  }
}

export interface ChatModuleOptions {
  connection: DatabaseConnection;
  /** The persona's system prompt and knowledge passages; default: the AI training's. */
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
    const chat = createChatService({
      repository: createChatRepository(options.connection.db),
      settings: app.settings,
      llm: options.llm ?? (() => app.providers.llm()),
      persona: options.persona ?? aiTrainingPersona(options.connection.db),
      log: app.log,
      ...(options.providerTimeoutMs ? { providerTimeoutMs: options.providerTimeoutMs } : {}),
    });
    app.decorate("chat", chat);
    await app.register(chatRoutes, { chat });
    await app.register(adminGuarded(chatLogsRoutes), { chat });
  },
  { name: "chat", dependencies: ["settings", "providers", "accounts"] },
);
