import {
  adminSettingsResponseSchema,
  SETTINGS_IMAGE_FIELDS,
  settingsImageKindSchema,
  testElevenLabsResponseSchema,
  testKeyRequestSchema,
  testOpenAiResponseSchema,
  testStripeResponseSchema,
  UPLOAD_LIMITS,
  updateSettingsRequestSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import { receiveOneFile } from "../../plugins/uploads.ts";
import { auditNote } from "../audit/plugin.ts";
import {
  type AdminSettingsService,
  IMAGE_FIELD_OF_KIND,
  SETTINGS_MESSAGES,
} from "./admin-service.ts";

const errors = errorResponses(400, 401, 403, 413, 429);
const tags = ["settings"];
const security = bearerSecurity;
const IMAGE_FIELDS = Object.keys(SETTINGS_IMAGE_FIELDS) as (keyof typeof SETTINGS_IMAGE_FIELDS)[];

export interface AdminSettingsRoutesOptions {
  service: AdminSettingsService;
  imageBytes?: number;
}

/**
 * The admin's settings: reading them with masked keys, saving, key tests and images. Every
 * route sits behind requireAdmin (registered through adminGuarded by settings/admin-plugin.ts).
 */
export const adminSettingsRoutes: FastifyPluginAsyncZod<AdminSettingsRoutesOptions> = async (
  app,
  { service, imageBytes = UPLOAD_LIMITS.imageBytes },
) => {
  app.get(
    "/api/admin/settings",
    {
      schema: {
        tags,
        security,
        summary: "The settings with masked provider keys and provider modes",
        response: { 200: adminSettingsResponseSchema, ...errors },
      },
    },
    async () => ({ success: true as const, data: await service.read() }),
  );

  app.put(
    "/api/settings",
    {
      schema: {
        tags,
        security,
        summary:
          "Saves the whole settings object (a masked key keeps the stored key; empty removes it)",
        body: updateSettingsRequestSchema,
        response: { 200: adminSettingsResponseSchema, ...errors },
      },
    },
    async (request) => {
      auditNote(request, { before: await service.read() });
      return {
        success: true as const,
        message: SETTINGS_MESSAGES.saved,
        data: await service.save(request.body),
      };
    },
  );

  const keyTest = { config: { rateLimit: app.authRateLimit } };

  app.post(
    "/api/settings/test-openai",
    {
      ...keyTest,
      schema: {
        tags,
        security,
        summary: "Lists the models the OpenAI key can use (a masked key tests the stored one)",
        body: testKeyRequestSchema,
        response: { 200: testOpenAiResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: SETTINGS_MESSAGES.openaiValid,
      data: { availableModels: await service.testOpenAi(request.body.apiKey) },
    }),
  );

  app.post(
    "/api/settings/test-stripe",
    {
      ...keyTest,
      schema: {
        tags,
        security,
        summary: "Reads the Stripe balance with the key",
        body: testKeyRequestSchema,
        response: { 200: testStripeResponseSchema, ...errors },
      },
    },
    async (request) => {
      await service.testStripe(request.body.apiKey);
      return { success: true as const, message: SETTINGS_MESSAGES.stripeValid };
    },
  );

  app.post(
    "/api/settings/test-elevenlabs",
    {
      ...keyTest,
      schema: {
        tags,
        security,
        summary: "Lists the voices of the ElevenLabs key",
        body: testKeyRequestSchema,
        response: { 200: testElevenLabsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: SETTINGS_MESSAGES.elevenLabsValid,
      data: { availableVoices: await service.testElevenLabs(request.body.apiKey) },
    }),
  );

  app.post(
    "/api/settings/upload",
    {
      schema: {
        tags,
        security,
        summary: `One image under ${IMAGE_FIELDS.join(", ")} (multipart; checked by content; 5 MB)`,
        consumes: ["multipart/form-data"],
        response: { 200: adminSettingsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const file = await receiveOneFile(request, {
        fields: IMAGE_FIELDS,
        maxBytes: imageBytes,
        tooLargeMessage: SETTINGS_MESSAGES.imageTooLarge,
      });
      const data = await service.saveImage(file);
      const label = SETTINGS_IMAGE_FIELDS[file.field as keyof typeof SETTINGS_IMAGE_FIELDS].label;
      return { success: true as const, message: SETTINGS_MESSAGES.uploaded(label), data };
    },
  );

  app.delete(
    "/api/settings/image/:kind",
    {
      schema: {
        tags,
        security,
        summary: "Removes an image setting and its file",
        params: z.object({ kind: settingsImageKindSchema }),
        response: { 200: adminSettingsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { kind } = request.params;
      const data = await service.removeImage(kind);
      const label = SETTINGS_IMAGE_FIELDS[IMAGE_FIELD_OF_KIND[kind]].label;
      return { success: true as const, message: SETTINGS_MESSAGES.imageRemoved(label), data };
    },
  );
};
