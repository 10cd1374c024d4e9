import { queryOptions } from "@tanstack/react-query";
import {
  type AiTraining,
  type KnowledgeDocument,
  routes,
  UPLOAD_LIMITS,
  VOICE_SAMPLE_TYPES,
  type VoiceSample,
} from "@twinline/contracts";
import { callRoute, type UploadProgress, uploadRoute } from "@/lib/api-client";

/**
 * The persona's training calls (admin-side spec, section 7), through the route table
 * (routes.aiTraining, admin only: the admin token comes from the definitions' access).
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
  const answer = await callRoute(routes.aiTraining.read, { signal });
  return answer.data;
}

export const aiTrainingQuery = () =>
  queryOptions({
    queryKey: aiTrainingKeys.all,
    queryFn: ({ signal }) => fetchAiTraining(signal),
  });

/** Saves the system prompt; resolves to the server's message, if any. */
export async function saveSystemPrompt(systemPrompt: string): Promise<string | null> {
  const answer = await callRoute(routes.aiTraining.systemPrompt, { body: { systemPrompt } });
  return answer.message || null;
}

interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** Uploads one PDF under `documents`, with progress. */
export async function uploadKnowledgeDocument(
  file: File,
  options: UploadOptions = {},
): Promise<{ document: KnowledgeDocument; message: string }> {
  const form = new FormData();
  form.append("documents", file);
  const answer = await uploadRoute(routes.aiTraining.uploadDocument, form, options);
  return { document: answer.data, message: answer.message };
}

export async function deleteKnowledgeDocument(id: string): Promise<void> {
  await callRoute(routes.aiTraining.deleteDocument, { params: { id } });
}

/** Uploads one audio file under `voiceSample`, with progress. */
export async function uploadVoiceSample(
  file: File,
  options: UploadOptions = {},
): Promise<{ sample: VoiceSample; message: string }> {
  const form = new FormData();
  form.append("voiceSample", file);
  const answer = await uploadRoute(routes.aiTraining.uploadVoiceSample, form, options);
  return { sample: answer.data, message: answer.message };
}

/** The stored sample's audio as a blob (the admin token cannot ride on <audio src>). */
export async function fetchVoiceSampleAudio(signal?: AbortSignal): Promise<Blob> {
  // Checked by the route's schema (bytes, else an "invalid-response" error).
  const body = await callRoute(routes.aiTraining.voiceSampleAudio, {
    signal,
    responseType: "blob",
  });
  return body as unknown as Blob;
}

/** Sets the voice id; resolves to the stored id and the server's message. */
export async function updateVoiceId(
  voiceId: string,
): Promise<{ voiceId: string | null; message: string | null }> {
  const answer = await callRoute(routes.aiTraining.voiceId, { body: { voiceId } });
  return { voiceId: answer.data.voiceId, message: answer.message || null };
}

/** Clones the voice from the stored sample; resolves to the new voice id. */
export async function generateVoiceClone(input: {
  name: string;
  description: string;
}): Promise<{ voiceId: string; message: string }> {
  const answer = await callRoute(routes.aiTraining.generateVoiceClone, { body: input });
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
