import { queryOptions } from "@tanstack/react-query";
import {
  type AiTraining,
  aiTrainingResponseSchema,
  type KnowledgeDocument,
  knowledgeDocumentResponseSchema,
  messageResponseSchema,
  UPLOAD_LIMITS,
  VOICE_SAMPLE_TYPES,
  type VoiceSample,
  voiceCloneResponseSchema,
  voiceIdResponseSchema,
  voiceSampleResponseSchema,
} from "@twinline/contracts";
import { ApiError, api, type UploadProgress, uploadWithProgress } from "@/lib/api-client";

/**
 * The persona's training calls (admin-side spec, section 7). Every URL here lacks /admin, so each
 * call passes `token: "admin"` (decision 0008).
 */

export const aiTrainingKeys = {
  all: ["admin", "ai-training"] as const,
  voiceAudio: (filename: string) => ["admin", "ai-training", "voice-audio", filename] as const,
};

export const AI_TRAINING_MESSAGES = {
  loadFailed: "Failed to load AI Training data",
  saveFailed: "Failed to save AI Training data",
  voiceUploadFailed: "Failed to upload voice sample",
  voiceIdFailed: "Failed to update voice ID",
  cloneFailed: "Failed to generate voice clone",
  needSample: "Please upload a voice sample first",
  deleteFailed: "Failed to delete document",
  uploadFailed: (file: string) => `Failed to upload ${file}`,
  pdfOnly: "Only PDF files are allowed",
  pdfTooLarge: `File is too large. The maximum size is ${UPLOAD_LIMITS.knowledgeDocumentBytes / 1024 / 1024} MB`,
  audioOnly: "Only MP3, WAV or WebM audio files are allowed",
  audioTooLarge: `File is too large. The maximum size is ${UPLOAD_LIMITS.voiceSampleBytes / 1024 / 1024} MB`,
} as const;

export async function fetchAiTraining(signal?: AbortSignal): Promise<AiTraining> {
  const answer = await api.get("/api/ai-training", {
    signal,
    token: "admin",
    schema: aiTrainingResponseSchema,
  });
  return answer.data;
}

export const aiTrainingQuery = () =>
  queryOptions({
    queryKey: aiTrainingKeys.all,
    queryFn: ({ signal }) => fetchAiTraining(signal),
  });

/** PUT /api/ai-training/system-prompt; resolves to the server's message, if any. */
export async function saveSystemPrompt(systemPrompt: string): Promise<string | null> {
  const answer = await api.put(
    "/api/ai-training/system-prompt",
    { systemPrompt },
    { token: "admin", schema: aiTrainingResponseSchema },
  );
  return answer.message || null;
}

interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** POST /api/ai-training/knowledge-documents: one PDF under `documents`, with progress. */
export async function uploadKnowledgeDocument(
  file: File,
  options: UploadOptions = {},
): Promise<{ document: KnowledgeDocument; message: string }> {
  const form = new FormData();
  form.append("documents", file);
  const answer = await uploadWithProgress("/api/ai-training/knowledge-documents", form, {
    ...options,
    token: "admin",
    schema: knowledgeDocumentResponseSchema,
  });
  return { document: answer.data, message: answer.message };
}

export async function deleteKnowledgeDocument(id: string): Promise<void> {
  await api.delete(`/api/ai-training/knowledge-documents/${encodeURIComponent(id)}`, {
    token: "admin",
    schema: messageResponseSchema,
  });
}

/** POST /api/ai-training/voice-sample: one audio file under `voiceSample`, with progress. */
export async function uploadVoiceSample(
  file: File,
  options: UploadOptions = {},
): Promise<{ sample: VoiceSample; message: string }> {
  const form = new FormData();
  form.append("voiceSample", file);
  const answer = await uploadWithProgress("/api/ai-training/voice-sample", form, {
    ...options,
    token: "admin",
    schema: voiceSampleResponseSchema,
  });
  return { sample: answer.data, message: answer.message };
}

/** GET /api/ai-training/voice-sample/audio as a blob (the admin token cannot ride on <audio src>). */
export async function fetchVoiceSampleAudio(signal?: AbortSignal): Promise<Blob> {
  const body = await api.get("/api/ai-training/voice-sample/audio", {
    signal,
    token: "admin",
    responseType: "blob",
  });
  // Checked by shape: in tests the Blob may come from another realm than the page's.
  if (!body || typeof body !== "object" || !("size" in body)) {
    throw new ApiError("The voice sample could not be loaded", {
      status: 200,
      body,
      kind: "invalid-response",
    });
  }
  return body as Blob;
}

/** PUT /api/ai-training/voice-id; resolves to the stored id and the server's message. */
export async function updateVoiceId(
  voiceId: string,
): Promise<{ voiceId: string | null; message: string | null }> {
  const answer = await api.put(
    "/api/ai-training/voice-id",
    { voiceId },
    { token: "admin", schema: voiceIdResponseSchema },
  );
  return { voiceId: answer.data.voiceId, message: answer.message || null };
}

/** POST /api/ai-training/generate-voice-clone; resolves to the new voice id. */
export async function generateVoiceClone(input: {
  name: string;
  description: string;
}): Promise<{ voiceId: string; message: string }> {
  const answer = await api.post("/api/ai-training/generate-voice-clone", input, {
    token: "admin",
    schema: voiceCloneResponseSchema,
  });
  return { voiceId: answer.data.voiceId, message: answer.message };
}

// ---------------------------------------------------------------------------------------------
// The client's quick checks (the server checks the content again)

export function knowledgeFileError(file: File): string | null {
  const isPdf = file.type === "application/pdf" || file.name.toLowerCase().endsWith(".pdf");
  if (!isPdf) return AI_TRAINING_MESSAGES.pdfOnly;
  if (file.size > UPLOAD_LIMITS.knowledgeDocumentBytes) return AI_TRAINING_MESSAGES.pdfTooLarge;
  return null;
}

const AUDIO_EXTENSIONS = [".mp3", ".wav", ".webm"];
const AUDIO_TYPE_ALIASES = ["audio/mp3", "audio/x-wav", "audio/wave", "audio/vnd.wave"];

export function voiceFileError(file: File): string | null {
  const type = file.type.toLowerCase();
  const typeOk =
    (VOICE_SAMPLE_TYPES as readonly string[]).includes(type) || AUDIO_TYPE_ALIASES.includes(type);
  const extensionOk = AUDIO_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext));
  if (!typeOk && !extensionOk) return AI_TRAINING_MESSAGES.audioOnly;
  if (file.size > UPLOAD_LIMITS.voiceSampleBytes) return AI_TRAINING_MESSAGES.audioTooLarge;
  return null;
}
