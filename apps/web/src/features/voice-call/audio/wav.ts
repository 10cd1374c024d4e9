import { encodePcm16Wav } from "@twinline/contracts";

/**
 * 16-bit PCM mono WAV of float samples (-1..1): the utterance as the neural microphone sends it
 * (the spec's audio/wav), at the model's 16 kHz, which is also what speech-to-text wants.
 */
export function encodeWav(chunks: readonly Float32Array[], sampleRate: number): ArrayBuffer {
  return encodePcm16Wav(chunks, sampleRate).buffer;
}
