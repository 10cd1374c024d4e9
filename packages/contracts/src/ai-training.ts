import { z } from "zod";
import { safeText } from "./text";

export const knowledgeDocumentSchema = z.object({
  _id: z.string(),
  originalName: z.string(),
  size: z.number().int(),
  uploadDate: z.string(),
  /** How many passages of text were indexed from it. */
  passages: z.number().int(),
});
export type KnowledgeDocument = z.infer<typeof knowledgeDocumentSchema>;

export const voiceSampleSchema = z.object({
  filename: z.string(),
  originalName: z.string(),
  path: z.string(),
  size: z.number().int(),
  uploadDate: z.string(),
  voiceId: z.string().nullable(),
});
export type VoiceSample = z.infer<typeof voiceSampleSchema>;

/** GET /api/ai-training → data. */
export const aiTrainingSchema = z.object({
  systemPrompt: z.string(),
  knowledgeDocuments: z.array(knowledgeDocumentSchema),
  voiceSample: voiceSampleSchema.nullable(),
  /** The voice the persona speaks with: cloned, or entered by hand. */
  voiceId: z.string().nullable(),
});
export type AiTraining = z.infer<typeof aiTrainingSchema>;

export const SYSTEM_PROMPT_MAX = 20_000;

export const updateSystemPromptRequestSchema = z.object({
  systemPrompt: safeText().max(SYSTEM_PROMPT_MAX, {
    error: `System prompt must be at most ${SYSTEM_PROMPT_MAX} characters`,
  }),
});
/** An empty voice id clears it: the persona speaks with the default voice again. */
export const updateVoiceIdRequestSchema = z.object({
  voiceId: safeText()
    .trim()
    .max(100)
    .regex(/^[A-Za-z0-9_-]*$/, { error: "Voice ID may hold only letters, digits, - and _" }),
});
export const generateVoiceCloneRequestSchema = z.object({
  name: safeText().trim().min(1, { error: "Voice name is required" }).max(100),
  description: safeText().trim().max(500).default(""),
});

export const aiTrainingResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: aiTrainingSchema,
});
export const knowledgeDocumentResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: knowledgeDocumentSchema,
});
export const voiceSampleResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: voiceSampleSchema,
});
export const voiceIdResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ voiceId: z.string().nullable() }),
});
/** A clone always answers the new voice's id. */
export const voiceCloneResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ voiceId: z.string() }),
});

/** Accepted voice sample formats (admin-side section 5). */
export const VOICE_SAMPLE_TYPES = ["audio/mpeg", "audio/wav", "audio/webm"] as const;
