import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.ts";
import { adminGuarded } from "../plugins/admin-scope.ts";
import { createAiTrainingRepository } from "./ai-training/repository.ts";
import { aiTrainingRoutes } from "./ai-training/routes.ts";
import { createAiTrainingService } from "./ai-training/service.ts";
import { adminSettingsRoutes } from "./settings/admin-routes.ts";
import { createAdminSettingsService } from "./settings/admin-service.ts";

/** Upload limits in bytes; tests lower them instead of sending 50 or 100 MB. */
export interface UploadLimitOverrides {
  imageBytes?: number;
  knowledgeDocumentBytes?: number;
  voiceSampleBytes?: number;
}

export interface OperatorModuleOptions {
  config: Config;
  uploadLimits?: UploadLimitOverrides;
}

/**
 * The operator's configuration: admin settings (masked keys, key tests, images) and the
 * persona's training. Everything here is admin-only: registered through adminGuarded
 * (plugins/admin-scope.ts), one onRequest hook (requireAdmin) for every route, present and
 * future: no token 401, a user's token 403.
 * Needs settings, providers, uploads and accounts (requireAdmin) registered before it.
 */
export const operatorModule = fp<OperatorModuleOptions>(
  async (app: FastifyInstance, options) => {
    const limits = options.uploadLimits ?? {};
    const onFileDeleteFailed = (name: string, error: unknown) =>
      app.log.warn({ err: error, file: name }, "Could not delete a replaced upload");
    const settingsService = createAdminSettingsService({
      config: options.config,
      settings: app.settings,
      keys: app.providerKeys,
      providers: app.providers.deps,
      publicFiles: app.uploads.publicFiles,
      onFileDeleteFailed,
    });
    const aiTraining = createAiTrainingService({
      repository: createAiTrainingRepository(app.database.db),
      files: app.uploads.privateFiles,
      tts: () => app.providers.tts(),
      onFileDeleteFailed,
    });

    await app.register(
      adminGuarded(async (guarded) => {
        await guarded.register(adminSettingsRoutes, {
          service: settingsService,
          ...(limits.imageBytes ? { imageBytes: limits.imageBytes } : {}),
        });
        await guarded.register(aiTrainingRoutes, {
          service: aiTraining,
          files: app.uploads.privateFiles,
          ...(limits.knowledgeDocumentBytes
            ? { knowledgeDocumentBytes: limits.knowledgeDocumentBytes }
            : {}),
          ...(limits.voiceSampleBytes ? { voiceSampleBytes: limits.voiceSampleBytes } : {}),
        });
      }),
    );
  },
  { name: "operator", dependencies: ["settings", "providers", "uploads", "accounts"] },
);
