import { ProviderUnavailableError } from "../errors.ts";
import type { TtsProvider } from "./types.ts";

export const OFFLINE_VOICE = { voice_id: "offline", name: "Offline voice (built in)" };

export const CLONE_NEEDS_ELEVENLABS =
  "Voice cloning needs an ElevenLabs API key: add one under API Configuration first";

/** The built-in voice: no key, no network, and no cloning. */
export function createOfflineTts(): TtsProvider {
  return {
    mode: "offline",
    async listVoices() {
      return [OFFLINE_VOICE];
    },
    async cloneVoice() {
      throw new ProviderUnavailableError(CLONE_NEEDS_ELEVENLABS);
    },
  };
}
