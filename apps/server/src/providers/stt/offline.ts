import { VOICE_MESSAGES } from "@twinline/contracts";
import type { SttProvider } from "./types.ts";

/**
 * No speech-to-text key: nothing is transcribed, and the call says so plainly (a transcription
 * marked offline carrying VOICE_MESSAGES.offlineTranscription). It does not guess at words.
 */
export function createOfflineStt(): SttProvider {
  return {
    mode: "offline",
    async transcribe() {
      return { text: VOICE_MESSAGES.offlineTranscription, offline: true };
    },
  };
}
