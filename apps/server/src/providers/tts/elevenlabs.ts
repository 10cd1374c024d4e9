import type { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";
import { messageIn, ProviderError, toProviderError, unreachable } from "../errors.ts";
import { lazy } from "../lazy.ts";
import type { TtsProvider } from "./types.ts";

export interface ElevenLabsOptions {
  apiKey: string;
  /** ELEVENLABS_BASE_URL; unset: api.elevenlabs.io. */
  baseUrl?: string | undefined;
}

/** A premade ElevenLabs voice, used until the admin trains or picks the persona's voice. */
export const DEFAULT_ELEVENLABS_VOICE_ID = "21m00Tcm4TlvDq8ikWAM";
/** The lowest-latency model, for a call's sentence-by-sentence speech. */
export const ELEVENLABS_TTS_MODEL = "eleven_flash_v2_5";

const loadElevenLabs = lazy(() => import("@elevenlabs/elevenlabs-js"));

/** An ElevenLabs SDK error in ElevenLabs' own words. */
async function elevenLabsError(error: unknown): Promise<ProviderError> {
  const sdk = await loadElevenLabs();
  if (error instanceof sdk.ElevenLabsTimeoutError) return unreachable("ElevenLabs", error);
  if (error instanceof sdk.ElevenLabsError) {
    if (error.statusCode === undefined) return unreachable("ElevenLabs", error);
    return new ProviderError(
      "ElevenLabs",
      messageIn(error.body) ?? error.message,
      error.statusCode,
    );
  }
  return toProviderError("ElevenLabs", error);
}

/** How a kept-alive connection that the other side closed as it was reused shows. */
const DROPPED_CONNECTION = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "UND_ERR_CLOSED"]);

type Caused = { code?: unknown; cause?: Caused };

function droppedConnection(error: unknown): boolean {
  let current = error as Caused | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current.code === "string" && DROPPED_CONNECTION.has(current.code)) return true;
    current = current.cause;
  }
  return false;
}

export async function createElevenLabsClient(
  options: ElevenLabsOptions,
): Promise<ElevenLabsClient> {
  const { ElevenLabsClient } = await loadElevenLabs();
  return new ElevenLabsClient({
    apiKey: options.apiKey,
    ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, "") } : {}),
    timeoutInSeconds: 60,
    maxRetries: 1,
  });
}

/** ElevenLabs through its official SDK. Errors come out as ProviderError. */
export function createElevenLabsTts(options: ElevenLabsOptions): TtsProvider {
  const client = lazy(() => createElevenLabsClient(options));
  return {
    mode: "elevenlabs",
    async listVoices() {
      try {
        const { voices } = await (await client()).voices.getAll();
        return voices.map((voice) => ({
          voice_id: voice.voiceId,
          name: voice.name ?? voice.voiceId,
        }));
      } catch (error) {
        throw await elevenLabsError(error);
      }
    },
    async cloneVoice({ name, description, sample }) {
      try {
        const created = await (await client()).voices.ivc.create({
          name,
          ...(description ? { description } : {}),
          files: [
            { path: sample.path, filename: sample.filename, contentType: sample.contentType },
          ],
        });
        return created.voiceId;
      } catch (error) {
        throw await elevenLabsError(error);
      }
    },
    async synthesize({ text, voiceId, signal }) {
      // A sentence whose connection was dropped before any audio came is asked once more, on a
      // fresh connection: the SDK retries answered failures (429, 5xx), not a reused socket the
      // provider had just closed, which a call under load meets and a fan would hear as silence.
      for (let attempt = 1; ; attempt++) {
        const chunks: Uint8Array[] = [];
        try {
          const stream = await (await client()).textToSpeech.stream(
            voiceId || DEFAULT_ELEVENLABS_VOICE_ID,
            { text, modelId: ELEVENLABS_TTS_MODEL, outputFormat: "mp3_44100_128" },
            signal ? { abortSignal: signal } : {},
          );
          for await (const chunk of stream) chunks.push(chunk);
          return { format: "audio/mpeg", audio: Buffer.concat(chunks) };
        } catch (error) {
          if (signal?.aborted) throw error;
          if (attempt === 1 && chunks.length === 0 && droppedConnection(error)) continue;
          throw await elevenLabsError(error);
        }
      }
    },
  };
}
