import { lazy } from "../lazy.ts";
import { createOpenAiClient, openAiError } from "../llm/openai.ts";
import type { SttProvider } from "./types.ts";

export const DEFAULT_STT_MODEL = "whisper-1";

export interface OpenAiSttOptions {
  apiKey: string;
  /** OPENAI_BASE_URL: OpenAI, speaches, a whisper.cpp server... */
  baseUrl?: string | undefined;
  /** OPENAI_STT_MODEL; unset: whisper-1. */
  model?: string | undefined;
}

const loadToFile = lazy(async () => (await import("openai")).toFile);

/** The file name the server sees: its extension tells most servers the container. */
export function fileNameFor(contentType: string | undefined): string {
  const type = (contentType ?? "").toLowerCase();
  if (type.includes("webm")) return "utterance.webm";
  if (type.includes("ogg")) return "utterance.ogg";
  if (type.includes("mpeg") || type.includes("mp3")) return "utterance.mp3";
  if (type.includes("mp4") || type.includes("m4a")) return "utterance.m4a";
  if (type.includes("wav")) return "utterance.wav";
  return "utterance.webm";
}

/** The audio file's type from its first bytes (the socket's binary frames carry no header). */
export function sniffAudioType(audio: Buffer): string | undefined {
  if (audio.subarray(0, 4).toString("latin1") === "RIFF") return "audio/wav";
  if (audio.subarray(0, 4).toString("latin1") === "OggS") return "audio/ogg";
  if (audio.readUInt32BE(0) === 0x1a45dfa3) return "audio/webm";
  if (audio.subarray(0, 3).toString("latin1") === "ID3") return "audio/mpeg";
  if (audio[0] === 0xff && ((audio[1] ?? 0) & 0xe0) === 0xe0) return "audio/mpeg";
  if (audio.subarray(4, 8).toString("latin1") === "ftyp") return "audio/mp4";
  return undefined;
}

/** `audio.transcriptions.create` of the official SDK, at any OpenAI-compatible base URL. */
export function createOpenAiStt(options: OpenAiSttOptions): SttProvider {
  const client = lazy(() => createOpenAiClient(options));
  const model = options.model ?? DEFAULT_STT_MODEL;
  return {
    mode: "openai",
    async transcribe({ audio, contentType, signal }) {
      const type = contentType ?? sniffAudioType(audio) ?? "audio/webm";
      try {
        const toFile = await loadToFile();
        const file = await toFile(audio, fileNameFor(type), { type });
        const result = await (await client()).audio.transcriptions.create(
          { file, model, response_format: "json" },
          signal ? { signal } : {},
        );
        return { text: result.text.trim() };
      } catch (error) {
        if (signal?.aborted) throw error;
        throw await openAiError(error);
      }
    },
  };
}
