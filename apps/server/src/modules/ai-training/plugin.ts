import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createAiTrainingRepository } from "./repository.ts";
import { aiTrainingRoutes } from "./routes.ts";
import { createAiTrainingService } from "./service.ts";

export interface AiTrainingModuleOptions {
  /** Lower upload limits (tests). */
  knowledgeDocumentBytes?: number;
  voiceSampleBytes?: number;
}

/**
 * The persona's training (system prompt, knowledge documents, voice), every route admin only
 * (requireAdmin). Needs providers, uploads and accounts (requireAdmin) registered before it.
 */
export const aiTrainingModule = fp<AiTrainingModuleOptions>(
  async (app: FastifyInstance, options) => {
    const service = createAiTrainingService({
      repository: createAiTrainingRepository(app.database.db),
      files: app.uploads.privateFiles,
      tts: () => app.providers.tts(),
      onFileDeleteFailed: (name, error) =>
        app.log.warn({ err: error, file: name }, "Could not delete a replaced upload"),
    });
    await app.register(aiTrainingRoutes, {
      service,
      files: app.uploads.privateFiles,
      ...(options.knowledgeDocumentBytes
        ? { knowledgeDocumentBytes: options.knowledgeDocumentBytes }
        : {}),
      ...(options.voiceSampleBytes ? { voiceSampleBytes: options.voiceSampleBytes } : {}),
    });
  },
  { name: "ai-training", dependencies: ["providers", "uploads", "accounts"] },
);
