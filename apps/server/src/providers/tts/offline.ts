import { ProviderUnavailableError } from "../errors.ts";
import { lazy } from "../lazy.ts";
import { type EspeakThread, startEspeakThread } from "./espeak-thread.ts";
import type { TtsProvider } from "./types.ts";

export const OFFLINE_VOICE = { voice_id: "offline", name: "Offline voice (built in)" };

export const CLONE_NEEDS_ELEVENLABS =
  "Voice cloning needs an ElevenLabs API key: add one under API Configuration first";

// One speech thread per process, started on the first sentence (offline calls only).
const thread = lazy(async (): Promise<EspeakThread> => startEspeakThread());

/**
 * The built-in voice: eSpeak NG compiled to WebAssembly (npm `espeak-ng`), real speech as WAV
 * with no key and no network; no cloning (docs/decisions/0021-voice-call.md).
 */
export function createOfflineTts(): TtsProvider {
  return {
    mode: "offline",
    async listVoices() {
      return [OFFLINE_VOICE];
    },
    async cloneVoice() {
      throw new ProviderUnavailableError(CLONE_NEEDS_ELEVENLABS);
    },
    async synthesize({ text, signal }) {
      const audio = await (await thread()).speak(text, signal);
      return { format: "audio/wav", audio };
    },
  };
}
