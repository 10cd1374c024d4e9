import { Mp3Encoder } from "@breezystack/lamejs";
import { encodePcm16Wav } from "@twinline/contracts";

/** A mono 16-bit tone: real audio a browser can decode and play. */
function tone(sampleRate: number, seconds: number, hz: number): Int16Array {
  const samples = new Int16Array(Math.round(sampleRate * seconds));
  for (let i = 0; i < samples.length; i++) {
    samples[i] = Math.round(Math.sin((2 * Math.PI * hz * i) / sampleRate) * 8000);
  }
  return samples;
}

/** A short MP3 (MPEG-1 layer III, 22050 Hz mono) of a tone, encoded by lamejs. */
export function makeMp3Tone(seconds = 0.4, hz = 440): Buffer {
  const sampleRate = 22050;
  const encoder = new Mp3Encoder(1, sampleRate, 64);
  const parts = [encoder.encodeBuffer(tone(sampleRate, seconds, hz)), encoder.flush()];
  return Buffer.concat(parts.map((part) => Buffer.from(part.buffer, part.byteOffset, part.length)));
}

/** A WAV (PCM 16-bit mono) of a tone: the kind of file a browser recorder or test sends. */
export function makeWavTone(seconds = 1, hz = 220, sampleRate = 16000): Buffer {
  const samples = Float32Array.from(tone(sampleRate, seconds, hz), (value) => value / 32767);
  const bytes = encodePcm16Wav([samples], sampleRate);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
