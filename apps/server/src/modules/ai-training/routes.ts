import {
  aiTrainingResponseSchema,
  generateVoiceCloneRequestSchema,
  knowledgeDocumentResponseSchema,
  UPLOAD_LIMITS,
  updateSystemPromptRequestSchema,
  updateVoiceIdRequestSchema,
  voiceCloneResponseSchema,
  voiceIdResponseSchema,
  voiceSampleResponseSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { HttpError } from "../../plugins/errors.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import { receiveOneFile } from "../../plugins/uploads.ts";
import type { FileStorage } from "../../providers/storage/index.ts";
import { AI_TRAINING_MESSAGES, type AiTrainingService } from "./service.ts";

const errors = errorResponses(400, 401, 403, 404, 413);
const tags = ["ai-training"];
const security = bearerSecurity;
const PREFIX = "/api/ai-training";

export interface AiTrainingRoutesOptions {
  service: AiTrainingService;
  files: FileStorage;
  knowledgeDocumentBytes?: number;
  voiceSampleBytes?: number;
}

/** One "bytes=start-end" range of a file of `size` bytes; undefined: serve it whole. */
function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | "invalid" | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return "invalid";
  let start: number;
  let end: number;
  if (match[1] === "") {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start > end || start >= size ? "invalid" : { start, end };
}

/** The persona's training. Every route is behind requireAdmin (adminGuarded, ai-training/plugin.ts). */
export const aiTrainingRoutes: FastifyPluginAsyncZod<AiTrainingRoutesOptions> = async (
  app,
  options,
) => {
  const { service, files } = options;
  const documentBytes = options.knowledgeDocumentBytes ?? UPLOAD_LIMITS.knowledgeDocumentBytes;
  const sampleBytes = options.voiceSampleBytes ?? UPLOAD_LIMITS.voiceSampleBytes;

  app.get(
    PREFIX,
    {
      schema: {
        tags,
        security,
        summary: "The persona's training",
        response: { 200: aiTrainingResponseSchema, ...errors },
      },
    },
    async () => ({ success: true as const, data: await service.read() }),
  );

  app.put(
    `${PREFIX}/system-prompt`,
    {
      schema: {
        tags,
        security,
        summary: "Saves the system prompt",
        body: updateSystemPromptRequestSchema,
        response: { 200: aiTrainingResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: AI_TRAINING_MESSAGES.systemPromptSaved,
      data: await service.setSystemPrompt(request.body.systemPrompt),
    }),
  );

  app.post(
    `${PREFIX}/knowledge-documents`,
    {
      schema: {
        tags,
        security,
        summary:
          "One PDF under the field `documents` (checked by content, 50 MB); its text is indexed",
        consumes: ["multipart/form-data"],
        response: { 200: knowledgeDocumentResponseSchema, ...errors },
      },
    },
    async (request) => {
      const file = await receiveOneFile(request, {
        fields: ["documents"],
        maxBytes: documentBytes,
        tooLargeMessage: AI_TRAINING_MESSAGES.documentTooLarge,
      });
      return {
        success: true as const,
        message: AI_TRAINING_MESSAGES.documentUploaded,
        data: await service.addDocument(file),
      };
    },
  );

  app.delete(
    `${PREFIX}/knowledge-documents/:id`,
    {
      schema: {
        tags,
        security,
        summary: "Deletes a knowledge document, its passages and its file",
        params: z.object({ id: z.uuid({ error: "Invalid document id" }) }),
        response: { 200: z.object({ success: z.literal(true), message: z.string() }), ...errors },
      },
    },
    async (request) => {
      await service.deleteDocument(request.params.id);
      return { success: true as const, message: AI_TRAINING_MESSAGES.documentDeleted };
    },
  );

  app.post(
    `${PREFIX}/voice-sample`,
    {
      schema: {
        tags,
        security,
        summary:
          "The voice sample under the field `voiceSample` (mp3, wav or webm; 100 MB); replaces the earlier one",
        consumes: ["multipart/form-data"],
        response: { 200: voiceSampleResponseSchema, ...errors },
      },
    },
    async (request) => {
      const file = await receiveOneFile(request, {
        fields: ["voiceSample"],
        maxBytes: sampleBytes,
        tooLargeMessage: AI_TRAINING_MESSAGES.voiceSampleTooLarge,
      });
      return {
        success: true as const,
        message: AI_TRAINING_MESSAGES.voiceSampleUploaded,
        data: await service.setVoiceSample(file),
      };
    },
  );

  app.get(
    `${PREFIX}/voice-sample/audio`,
    {
      schema: {
        tags,
        security,
        summary: "The stored voice sample's audio (Range requests supported)",
        produces: ["audio/mpeg", "audio/wav", "audio/webm"],
      },
    },
    async (request, reply) => {
      const sample = await service.voiceSampleFile();
      const range = parseRange(request.headers.range, sample.size);
      reply
        .header("content-type", sample.contentType)
        .header("accept-ranges", "bytes")
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, no-cache");
      if (range === "invalid") {
        reply.header("content-range", `bytes */${sample.size}`);
        throw new HttpError(416, "Requested range not satisfiable");
      }
      if (range) {
        reply
          .code(206)
          .header("content-range", `bytes ${range.start}-${range.end}/${sample.size}`)
          .header("content-length", range.end - range.start + 1);
        return reply.send(files.read(sample.name, range));
      }
      reply.header("content-length", sample.size);
      return reply.send(files.read(sample.name));
    },
  );

  app.put(
    `${PREFIX}/voice-id`,
    {
      schema: {
        tags,
        security,
        summary: "Sets the voice id the persona speaks with",
        body: updateVoiceIdRequestSchema,
        response: { 200: voiceIdResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: AI_TRAINING_MESSAGES.voiceIdSaved,
      data: { voiceId: await service.setVoiceId(request.body.voiceId) },
    }),
  );

  app.post(
    `${PREFIX}/generate-voice-clone`,
    {
      schema: {
        tags,
        security,
        summary: "ElevenLabs instant voice clone from the stored sample; stores the new voice id",
        body: generateVoiceCloneRequestSchema,
        response: { 200: voiceCloneResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: AI_TRAINING_MESSAGES.voiceCloned,
      data: { voiceId: await service.cloneVoice(request.body) },
    }),
  );
};
