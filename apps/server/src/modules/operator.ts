import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.ts";
import { aiTrainingModule } from "./ai-training/plugin.ts";
import { adminSettingsModule } from "./settings/admin-plugin.ts";

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
 * The operator's configuration: the admin settings module and the AI training module, each
 * registering its own admin-only routes through adminGuarded (plugins/admin-scope.ts). Only the
 * upload limits are shared here.
 */
export const operatorModule = fp<OperatorModuleOptions>(
  async (app: FastifyInstance, options) => {
    const limits = options.uploadLimits ?? {};
    await app.register(adminSettingsModule, {
      config: options.config,
      ...(limits.imageBytes ? { imageBytes: limits.imageBytes } : {}),
    });
    await app.register(aiTrainingModule, {
      ...(limits.knowledgeDocumentBytes
        ? { knowledgeDocumentBytes: limits.knowledgeDocumentBytes }
        : {}),
      ...(limits.voiceSampleBytes ? { voiceSampleBytes: limits.voiceSampleBytes } : {}),
    });
  },
  { name: "operator", dependencies: ["settings", "providers", "uploads", "accounts"] },
);
