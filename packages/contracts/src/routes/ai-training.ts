import { z } from "zod";
import {
  aiTrainingResponseSchema,
  generateVoiceCloneRequestSchema,
  knowledgeDocumentResponseSchema,
  updateSystemPromptRequestSchema,
  updateVoiceIdRequestSchema,
  voiceCloneResponseSchema,
  voiceIdResponseSchema,
  voiceSampleResponseSchema,
} from "../ai-training";
import { defineRoute } from "./define";
import { fileAnswerSchema } from "./files";

const tags = ["ai-training"];
const errors = [400, 401, 403, 404, 413];

/** The persona's training (apps/server/src/modules/ai-training), admin only. */
export const aiTrainingRoutes = {
  read: defineRoute({
    method: "GET",
    path: "/api/ai-training",
    access: "admin",
    tags,
    summary: "The persona's training",
    response: aiTrainingResponseSchema,
    errors,
  }),
  systemPrompt: defineRoute({
    method: "PUT",
    path: "/api/ai-training/system-prompt",
    access: "admin",
    tags,
    summary: "Saves the system prompt",
    body: updateSystemPromptRequestSchema,
    response: aiTrainingResponseSchema,
    errors,
  }),
  uploadDocument: defineRoute({
    method: "POST",
    path: "/api/ai-training/knowledge-documents",
    access: "admin",
    kind: "upload",
    tags,
    summary: "One PDF under the field `documents` (checked by content, 50 MB); its text is indexed",
    response: knowledgeDocumentResponseSchema,
    errors,
  }),
  deleteDocument: defineRoute({
    method: "DELETE",
    path: "/api/ai-training/knowledge-documents/:id",
    access: "admin",
    tags,
    summary: "Deletes a knowledge document, its passages and its file",
    params: z.object({ id: z.uuid({ error: "Invalid document id" }) }),
    response: z.object({ success: z.literal(true), message: z.string() }),
    errors,
  }),
  uploadVoiceSample: defineRoute({
    method: "POST",
    path: "/api/ai-training/voice-sample",
    access: "admin",
    kind: "upload",
    tags,
    summary:
      "The voice sample under the field `voiceSample` (mp3, wav or webm; 100 MB); replaces the earlier one",
    response: voiceSampleResponseSchema,
    errors,
  }),
  voiceId: defineRoute({
    method: "PUT",
    path: "/api/ai-training/voice-id",
    access: "admin",
    tags,
    summary: "Sets the voice id the persona speaks with",
    body: updateVoiceIdRequestSchema,
    response: voiceIdResponseSchema,
    errors,
  }),
  generateVoiceClone: defineRoute({
    method: "POST",
    path: "/api/ai-training/generate-voice-clone",
    access: "admin",
    tags,
    summary: "ElevenLabs instant voice clone from the stored sample; stores the new voice id",
    body: generateVoiceCloneRequestSchema,
    response: voiceCloneResponseSchema,
    errors,
  }),
  /** The stored voice sample's audio (Range requests supported): a file. */
  voiceSampleAudio: defineRoute({
    method: "GET",
    path: "/api/ai-training/voice-sample/audio",
    access: "admin",
    kind: "file",
    tags: ["ai-training"],
    summary: "The stored voice sample's audio (Range requests supported)",
    produces: ["audio/mpeg", "audio/wav", "audio/webm"],
    response: fileAnswerSchema,
  }),
} as const;
