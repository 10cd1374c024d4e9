// The fake microphone's recording: utterances spoken by the app's own offline voice (eSpeak NG
// in WebAssembly), some with a 300–600 ms pause mid-sentence, each followed by a long silence
// (the persona answers then). One 48 kHz mono WAV that Chromium plays as the microphone.

import { parseWav, pcm16Wav } from "../../apps/server/src/providers/stt/wav.ts";
import { createOfflineTts } from "../../apps/server/src/providers/tts/offline.ts";

export const RATE = 48_000;

export interface Utterance {
  /** The parts spoken, with the pause between them (ms), if any. */
  parts: string[];
  pauseMs: number;
}

export const UTTERANCES: Utterance[] = [
  { parts: ["How are you today?"], pauseMs: 0 },
  { parts: ["I was thinking", "about going to the beach tomorrow."], pauseMs: 300 },
  { parts: ["Tell me about your favourite movie."], pauseMs: 0 },
  { parts: ["My sister said", "that you sing really well."], pauseMs: 450 },
  { parts: ["What did you do this weekend?"], pauseMs: 0 },
  { parts: ["Could you maybe", "tell me a funny story?"], pauseMs: 600 },
  { parts: ["I love the song you released last year."], pauseMs: 0 },
  { parts: ["When I was little", "I wanted to be a pilot."], pauseMs: 350 },
  { parts: ["Do you like cooking?"], pauseMs: 0 },
  { parts: ["The weather here is", "cold and rainy this week."], pauseMs: 550 },
];

/** Float samples at RATE of one piece of speech. */
async function speak(text: string): Promise<Float32Array> {
  const spoken = await createOfflineTts().synthesize({
    text,
    voiceId: null,
    signal: new AbortController().signal,
  });
  const wav = parseWav(spoken.audio);
  if (wav?.bitsPerSample !== 16) throw new Error("unexpected offline voice format");
  const frames = wav.data.length / 2;
  const ratio = wav.sampleRate / RATE;
  const out = new Float32Array(Math.floor(frames / ratio));
  for (let i = 0; i < out.length; i++) {
    const at = i * ratio;
    const left = Math.floor(at);
    const a = wav.data.readInt16LE(left * 2) / 32768;
    const b = left + 1 < frames ? wav.data.readInt16LE((left + 1) * 2) / 32768 : a;
    out[i] = a + (b - a) * (at - left);
  }
  // eSpeak pads each sentence with silence: trim it, the pauses are ours.
  let start = 0;
  let end = out.length;
  while (start < end && Math.abs(out[start] ?? 0) < 0.003) start++;
  while (end > start && Math.abs(out[end - 1] ?? 0) < 0.003) end--;
  return out.subarray(start, end);
}

const silence = (ms: number) => new Float32Array(Math.round((ms / 1000) * RATE));

/** The recording: lead silence, then each utterance and `gapMs` of silence after it. */
export async function recording(gapMs: number, leadMs = 3000): Promise<Buffer> {
  const chunks: Float32Array[] = [silence(leadMs)];
  for (const utterance of UTTERANCES) {
    for (const [index, part] of utterance.parts.entries()) {
      if (index > 0) chunks.push(silence(utterance.pauseMs));
      chunks.push(await speak(part));
    }
    chunks.push(silence(gapMs));
  }
  // A little below full scale, as a microphone leaves headroom.
  const samples = new Float64Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    for (const sample of chunk) samples[offset++] = sample * 0.9;
  }
  return pcm16Wav(samples, RATE);
}
