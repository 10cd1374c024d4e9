// The fake microphone's recording: utterances spoken by the app's own offline voice (eSpeak NG
// in WebAssembly), each followed by a long silence (the persona answers then). One 48 kHz mono
// WAV that Chromium plays as the microphone. Two sets, interleaved (issue 24): hesitant speech
// (a 0.6–1.2 s pause after each unfinished phrase) and complete sentences said in one go.

import { parseWav, pcm16Wav } from "../../apps/server/src/providers/stt/wav.ts";
import { createOfflineTts } from "../../apps/server/src/providers/tts/offline.ts";

export const RATE = 48_000;

export interface Utterance {
  /** The parts spoken, with `pauseMs` between them; what the STT stand-in hears so far. */
  parts: string[];
  pauseMs: number;
}

/** Unfinished phrases, a pause, and the rest: one turn each, never to be cut off. */
export const HESITANT: Utterance[] = [
  { parts: ["I was thinking", "about going to the beach", "tomorrow."], pauseMs: 800 },
  { parts: ["My sister and", "I went to your concert."], pauseMs: 600 },
  { parts: ["Could you tell me a story about the", "time you started singing?"], pauseMs: 1000 },
  { parts: ["I want to go to", "Paris next summer."], pauseMs: 1200 },
  { parts: ["The best part of", "my day was the walk home."], pauseMs: 700 },
  { parts: ["I was wondering if", "you could sing for me."], pauseMs: 900 },
  { parts: ["We could meet at the", "cafe near the river."], pauseMs: 1100 },
  { parts: ["It was a gift from my", "grandmother."], pauseMs: 650 },
  { parts: ["I really like the", "new song you wrote."], pauseMs: 1000 },
  { parts: ["Yesterday I went to the park and", "I saw a big dog."], pauseMs: 850 },
  { parts: ["Tell me more about", "your favourite book."], pauseMs: 1200 },
  { parts: ["I have been learning", "to play the guitar."], pauseMs: 750 },
  { parts: ["My brother is moving to", "another city."], pauseMs: 950 },
  { parts: ["Do you think that", "it will rain tomorrow?"], pauseMs: 1100 },
  { parts: ["I am not sure if", "I should call her."], pauseMs: 600 },
  { parts: ["The movie we watched was", "really scary."], pauseMs: 1000 },
  { parts: ["Sometimes I wish that", "I could fly."], pauseMs: 800 },
  { parts: ["I usually drink coffee with", "milk in the morning."], pauseMs: 1200 },
  { parts: ["Last week my friend and", "I cooked dinner together."], pauseMs: 700 },
  { parts: ["What do you think about", "the weather", "this week?"], pauseMs: 900 },
];

/** Whole sentences: the time to the persona's first audio is measured on these. */
export const COMPLETE: Utterance[] = [
  "How are you today?",
  "Tell me about your favourite movie.",
  "What did you do this weekend?",
  "I love the song you released last year.",
  "Do you like cooking?",
  "The weather is lovely today.",
  "What is your favourite colour?",
  "I had a great day at work.",
  "Can you recommend a good book?",
  "My cat is sleeping on the sofa.",
  "Where did you grow up?",
  "I just finished my exams.",
  "Do you have any pets?",
  "That was a funny joke.",
  "What time is it where you are?",
  "I went running this morning.",
  "Have you ever been to Japan?",
  "I think you are very kind.",
  "What music do you listen to?",
  "Thank you for talking with me.",
].map((sentence) => ({ parts: [sentence], pauseMs: 0 }));

/** The recording's order: one of each set in turn (BENCH_UTTERANCES keeps the first n). */
export const UTTERANCES: Utterance[] = HESITANT.flatMap((hesitant, index) => {
  const complete = COMPLETE[index];
  return complete ? [hesitant, complete] : [hesitant];
}).slice(0, Number(process.env.BENCH_UTTERANCES ?? Number.POSITIVE_INFINITY));

export const isHesitant = (utterance: Utterance) => utterance.parts.length > 1;

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

/** When each part of each utterance starts in the recording (ms from its beginning). */
export type Timeline = { utterance: Utterance; partStarts: number[] }[];

/** The recording: lead silence, then each utterance and `gapMs` of silence after it. */
export async function recording(
  gapMs: number,
  leadMs = 3000,
): Promise<{ wav: Buffer; timeline: Timeline }> {
  const chunks: Float32Array[] = [silence(leadMs)];
  const timeline: Timeline = [];
  let length = chunks[0]?.length ?? 0;
  const add = (chunk: Float32Array) => {
    chunks.push(chunk);
    length += chunk.length;
  };
  for (const utterance of UTTERANCES) {
    const partStarts: number[] = [];
    for (const [index, part] of utterance.parts.entries()) {
      if (index > 0) add(silence(utterance.pauseMs));
      partStarts.push((length / RATE) * 1000);
      add(await speak(part));
    }
    timeline.push({ utterance, partStarts });
    add(silence(gapMs));
  }
  // A little below full scale, as a microphone leaves headroom.
  const samples = new Float64Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    for (const sample of chunk) samples[offset++] = sample * 0.9;
  }
  return { wav: pcm16Wav(samples, RATE), timeline };
}

/**
 * What a recogniser would have heard `elapsedMs` into the recording: the parts of the utterance
 * under way that have begun (the STT stand-in answers the words so far, as Whisper would).
 */
export function wordsAt(timeline: Timeline, elapsedMs: number): string {
  const current = timeline.findLast((entry) => (entry.partStarts[0] ?? 0) <= elapsedMs);
  if (!current) return "";
  const begun = current.partStarts.filter((start) => start <= elapsedMs).length;
  return current.utterance.parts.slice(0, begun).join(" ");
}
