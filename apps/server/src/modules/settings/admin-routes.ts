import { routes, SETTINGS_IMAGE_FIELDS, UPLOAD_LIMITS } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { registerRoute } from "../../plugins/routes.ts";
import { receiveOneFile } from "../../plugins/uploads.ts";
import { auditNote } from "../audit/plugin.ts";
import {
  type AdminSettingsService,
  IMAGE_FIELD_OF_KIND,
  SETTINGS_MESSAGES,
} from "./admin-service.ts";

const IMAGE_FIELDS = Object.keys(SETTINGS_IMAGE_FIELDS) as (keyof typeof SETTINGS_IMAGE_FIELDS)[];

export interface AdminSettingsRoutesOptions {
  service: AdminSettingsService;
  imageBytes?: number;
}

/**
 * The admin's settings: reading them with masked keys, saving, key tests and images. Every
 * route's definition (routes.settings) has access "admin": registerRoute guards it with
 * requireAdmin.
 */
export const adminSettingsRoutes: FastifyPluginAsync<AdminSettingsRoutesOptions> = async (
  app,
  { service, imageBytes = UPLOAD_LIMITS.imageBytes },
) => {
  const r = routes.settings;
  registerRoute(app, r.admin, async () => ({ success: true as const, data: await service.read() }));

  registerRoute(app, r.save, async (request) => {
    auditNote(request, { before: await service.read() });
    return {
      success: true as const,
      message: SETTINGS_MESSAGES.saved,
      data: await service.save(request.body),
    };
  });

  const keyTest = { config: { rateLimit: app.authRateLimit } };

  registerRoute(
    app,
    r.testOpenAi,
    async (request) => ({
      success: true as const,
      message: SETTINGS_MESSAGES.openaiValid,
      data: { availableModels: await service.testOpenAi(request.body.apiKey) },
    }),
    keyTest,
  );

  registerRoute(
    app,
    r.testStripe,
    async (request) => {
      await service.testStripe(request.body.apiKey);
      return { success: true as const, message: SETTINGS_MESSAGES.stripeValid };
    },
    keyTest,
  );

  registerRoute(
    app,
    r.testElevenLabs,
    async (request) => ({
      success: true as const,
      message: SETTINGS_MESSAGES.elevenLabsValid,
      data: { availableVoices: await service.testElevenLabs(request.body.apiKey) },
    }),
    keyTest,
  );

  registerRoute(app, r.uploadImage, async (request) => {
    const file = await receiveOneFile(request, {
      fields: IMAGE_FIELDS,
      maxBytes: imageBytes,
      tooLargeMessage: SETTINGS_MESSAGES.imageTooLarge,
    });
    const data = await service.saveImage(file);
    const label = SETTINGS_IMAGE_FIELDS[file.field as keyof typeof SETTINGS_IMAGE_FIELDS].label;
    return { success: true as const, message: SETTINGS_MESSAGES.uploaded(label), data };
  });

  registerRoute(app, r.removeImage, async (request) => {
    const { kind } = request.params;
    const data = await service.removeImage(kind);
    const label = SETTINGS_IMAGE_FIELDS[IMAGE_FIELD_OF_KIND[kind]].label;
    return { success: true as const, message: SETTINGS_MESSAGES.imageRemoved(label), data };
  });
};
