import {
  type AiTraining,
  type KnowledgeDocument,
  routes,
  type VoiceSample,
} from "@twinline/contracts";
import { HttpError } from "../../plugins/errors.ts";
import { discard, type ReceivedFile, storedNameFor } from "../../plugins/uploads.ts";
import { ProviderError, ProviderUnavailableError } from "../../providers/errors.ts";
import type { FileStorage } from "../../providers/storage/index.ts";
import type { TtsProvider } from "../../providers/tts/index.ts";
import { splitIntoPassages } from "./passages.ts";
import {
  DEFAULT_PDF_LIMITS,
  extractPdfPages,
  PDF_MESSAGES,
  UnreadablePdfError,
} from "./pdf-text.ts";
import type { AiTrainingRepository, AiTrainingRow, DocumentRow } from "./repository.ts";

export const AI_TRAINING_MESSAGES = {
  systemPromptSaved: "System prompt saved successfully",
  documentUploaded: "Knowledge document uploaded successfully",
  documentDeleted: "Knowledge document deleted successfully",
  documentNotFound: "Knowledge document not found",
  notAPdf: "Only PDF files are allowed",
  unreadablePdf: PDF_MESSAGES.unreadable(DEFAULT_PDF_LIMITS),
  noText: "This PDF has no extractable text",
  documentTooLarge: "File is too large (max 50 MB)",
  voiceSampleUploaded: "Voice sample uploaded successfully",
  voiceSampleType: "Only mp3, wav or webm audio files are allowed",
  voiceSampleTooLarge: "File is too large (max 100 MB)",
  noVoiceSample: "Please upload a voice sample first",
  voiceIdSaved: "Voice ID updated successfully",
  voiceCloned: "Voice clone generated successfully",
} as const;

/** Where the admin's player fetches the stored sample. */
export const VOICE_SAMPLE_AUDIO_PATH = routes.aiTraining.voiceSampleAudio.path;

const AUDIO_EXTS = new Set(["mp3", "wav", "webm"]);

export interface AiTrainingService {
  read(): Promise<AiTraining>;
  setSystemPrompt(systemPrompt: string): Promise<AiTraining>;
  addDocument(file: ReceivedFile): Promise<KnowledgeDocument>;
  deleteDocument(id: string): Promise<void>;
  setVoiceSample(file: ReceivedFile): Promise<VoiceSample>;
  /** The stored sample for streaming, or 404. */
  voiceSampleFile(): Promise<{ name: string; contentType: string; size: number }>;
  /** "" clears the voice id (null). */
  setVoiceId(voiceId: string): Promise<string | null>;
  cloneVoice(request: { name: string; description: string }): Promise<string>;
}

export interface AiTrainingDeps {
  repository: AiTrainingRepository;
  files: FileStorage;
  /** The voice provider in force (app.providers.tts). */
  tts: () => Promise<TtsProvider>;
  onFileDeleteFailed?: (name: string, error: unknown) => void;
}

const toDocument = (row: DocumentRow): KnowledgeDocument => ({
  _id: row.id,
  originalName: row.originalName,
  size: row.size,
  uploadDate: row.uploadDate.toISOString(),
  passages: row.passages,
});

function toVoiceSample(row: AiTrainingRow): VoiceSample | null {
  if (!row.voiceSampleFile) return null;
  return {
    filename: row.voiceSampleFile,
    originalName: row.voiceSampleOriginalName ?? row.voiceSampleFile,
    path: VOICE_SAMPLE_AUDIO_PATH,
    size: row.voiceSampleSize ?? 0,
    uploadDate: (row.voiceSampleUploadedAt ?? row.updatedAt).toISOString(),
    voiceId: row.voiceId,
  };
}

export function createAiTrainingService(deps: AiTrainingDeps): AiTrainingService {
  const { repository, files } = deps;

  const deleteQuietly = async (name: string | null | undefined) => {
    if (!name) return;
    try {
      await files.delete(name);
    } catch (error) {
      deps.onFileDeleteFailed?.(name, error);
    }
  };

  const read = async (): Promise<AiTraining> => {
    const [row, documents] = await Promise.all([repository.read(), repository.listDocuments()]);
    return {
      systemPrompt: row.systemPrompt,
      knowledgeDocuments: documents.map(toDocument),
      voiceSample: toVoiceSample(row),
      voiceId: row.voiceId,
    };
  };

  return {
    read,

    async setSystemPrompt(systemPrompt) {
      await repository.setSystemPrompt(systemPrompt);
      return read();
    },

    async addDocument(file) {
      if (file.kind?.ext !== "pdf") {
        await discard(file);
        throw new HttpError(400, AI_TRAINING_MESSAGES.notAPdf, { field: file.field });
      }
      let pages: string[];
      try {
        pages = await extractPdfPages(file.temporaryPath);
      } catch (error) {
        await discard(file);
        if (error instanceof UnreadablePdfError) {
          throw new HttpError(400, error.message, { field: file.field });
        }
        throw error;
      }
      const passages = splitIntoPassages(pages);
      if (passages.length === 0) {
        await discard(file);
        throw new HttpError(400, AI_TRAINING_MESSAGES.noText, { field: file.field });
      }
      const storedName = storedNameFor(file.kind);
      await files.putFile(file.temporaryPath, storedName);
      try {
        const row = await repository.insertDocument(
          { originalName: file.filename, storedName, size: file.size },
          passages,
        );
        return toDocument(row);
      } catch (error) {
        await deleteQuietly(storedName);
        throw error;
      }
    },

    async deleteDocument(id) {
      const storedName = await repository.deleteDocument(id);
      if (!storedName) throw new HttpError(404, AI_TRAINING_MESSAGES.documentNotFound);
      await deleteQuietly(storedName);
    },

    async setVoiceSample(file) {
      if (!file.kind || !AUDIO_EXTS.has(file.kind.ext)) {
        await discard(file);
        throw new HttpError(400, AI_TRAINING_MESSAGES.voiceSampleType, { field: file.field });
      }
      const storedName = storedNameFor(file.kind);
      await files.putFile(file.temporaryPath, storedName);
      try {
        const { row, previousFile } = await repository.setVoiceSample({
          voiceSampleFile: storedName,
          voiceSampleOriginalName: file.filename,
          voiceSampleSize: file.size,
          voiceSampleContentType: file.kind.mime,
        });
        if (previousFile !== storedName) await deleteQuietly(previousFile);
        const sample = toVoiceSample(row);
        if (!sample) throw new Error("voice sample missing after save");
        return sample;
      } catch (error) {
        await deleteQuietly(storedName);
        throw error;
      }
    },

    async voiceSampleFile() {
      const row = await repository.read();
      const name = row.voiceSampleFile;
      const found = name ? await files.stat(name) : undefined;
      if (!name || !found) throw new HttpError(404, AI_TRAINING_MESSAGES.noVoiceSample);
      return {
        name,
        contentType: row.voiceSampleContentType ?? "application/octet-stream",
        size: found.size,
      };
    },

    async setVoiceId(voiceId) {
      const stored = voiceId === "" ? null : voiceId;
      await repository.setVoiceId(stored);
      return stored;
    },

    async cloneVoice({ name, description }) {
      const row = await repository.read();
      const sample = row.voiceSampleFile;
      if (!sample || !(await files.stat(sample))) {
        throw new HttpError(400, AI_TRAINING_MESSAGES.noVoiceSample);
      }
      const tts = await deps.tts();
      try {
        const voiceId = await tts.cloneVoice({
          name,
          description,
          sample: {
            path: await files.localPath(sample),
            filename: row.voiceSampleOriginalName ?? sample,
            contentType: row.voiceSampleContentType ?? "application/octet-stream",
          },
        });
        await repository.setVoiceId(voiceId);
        return voiceId;
      } catch (error) {
        if (error instanceof ProviderUnavailableError) throw new HttpError(400, error.message);
        if (error instanceof ProviderError) {
          throw new HttpError(400, error.message, {
            provider: error.provider,
            status: error.status,
          });
        }
        throw error;
      }
    },
  };
}
