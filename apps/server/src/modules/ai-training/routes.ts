import { routes, UPLOAD_LIMITS } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { HttpError } from "../../plugins/errors.ts";
import { registerRoute } from "../../plugins/routes.ts";
import { receiveOneFile } from "../../plugins/uploads.ts";
import type { FileStorage } from "../../providers/storage/index.ts";
import { AI_TRAINING_MESSAGES, type AiTrainingService } from "./service.ts";

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

/** The persona's training. Every route is admin only (requireAdmin, from routes.aiTraining). */
export const aiTrainingRoutes: FastifyPluginAsync<AiTrainingRoutesOptions> = async (
  app,
  options,
) => {
  const { service, files } = options;
  const documentBytes = options.knowledgeDocumentBytes ?? UPLOAD_LIMITS.knowledgeDocumentBytes;
  const sampleBytes = options.voiceSampleBytes ?? UPLOAD_LIMITS.voiceSampleBytes;

  registerRoute(app, routes.aiTraining.read, async () => ({
    success: true as const,
    data: await service.read(),
  }));

  registerRoute(app, routes.aiTraining.systemPrompt, async (request) => ({
    success: true as const,
    message: AI_TRAINING_MESSAGES.systemPromptSaved,
    data: await service.setSystemPrompt(request.body.systemPrompt),
  }));

  registerRoute(app, routes.aiTraining.uploadDocument, async (request) => {
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
  });

  registerRoute(app, routes.aiTraining.deleteDocument, async (request) => {
    await service.deleteDocument(request.params.id);
    return { success: true as const, message: AI_TRAINING_MESSAGES.documentDeleted };
  });

  registerRoute(app, routes.aiTraining.uploadVoiceSample, async (request) => {
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
  });

  registerRoute(app, routes.aiTraining.voiceSampleAudio, async (request, reply) => {
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
  });

  registerRoute(app, routes.aiTraining.voiceId, async (request) => ({
    success: true as const,
    message: AI_TRAINING_MESSAGES.voiceIdSaved,
    data: { voiceId: await service.setVoiceId(request.body.voiceId) },
  }));

  registerRoute(app, routes.aiTraining.generateVoiceClone, async (request) => ({
    success: true as const,
    message: AI_TRAINING_MESSAGES.voiceCloned,
    data: { voiceId: await service.cloneVoice(request.body) },
  }));
};
