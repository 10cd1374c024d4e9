import { encodePcm16Wav } from "@twinline/contracts";

/**
 * A WAV file that sounds enough like speech for a browser's audio processing (echo cancellation,
 * noise suppression, gain control) to let it through and for a level-based voice detector to hear
 * an utterance: a voiced source (a gliding fundamental with harmonics shaped by vowel formants)
 * in syllables of ~220 ms, then silence. Chromium plays it as the fake microphone
 * (`--use-file-for-fake-audio-capture`), looping it.
 */

export interface SpeechWavOptions {
  sampleRate?: number;
  /** Silence before the utterance (s). */
  leadSeconds?: number;
  /** Number of syllables in the utterance. */
  syllables?: number;
  /** Silence after the utterance (s): the whole file loops, so this is the gap between turns. */
  tailSeconds?: number;
  /** Peak amplitude, 0..1. */
  amplitude?: number;
}

/** Formants (Hz) of a few vowels: a, e, i, o, u. */
const VOWELS: [number, number, number][] = [
  [730, 1090, 2440],
  [530, 1840, 2480],
  [270, 2290, 3010],
  [570, 840, 2410],
  [300, 870, 2240],
];

function formantGain(frequency: number, formants: [number, number, number]): number {
  let gain = 0;
  for (const [index, centre] of formants.entries()) {
    const width = 80 + index * 40;
    gain += (1 / (1 + ((frequency - centre) / width) ** 2)) * (index === 0 ? 1 : 0.6);
  }
  return gain;
}

/** 16-bit mono PCM WAV bytes. */
export function speechLikeWav(options: SpeechWavOptions = {}): Buffer {
  const sampleRate = options.sampleRate ?? 16_000;
  const lead = options.leadSeconds ?? 0.5;
  const syllables = options.syllables ?? 7;
  const tail = options.tailSeconds ?? 8;
  const amplitude = options.amplitude ?? 0.6;
  const syllableSeconds = 0.22;
  const gapSeconds = 0.05;
  const speechSeconds = syllables * (syllableSeconds + gapSeconds);
  const total = Math.round((lead + speechSeconds + tail) * sampleRate);
  const samples = new Float32Array(total);

  let phase = 0;
  let seed = 12345;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff - 0.5;
  };
  const start = Math.round(lead * sampleRate);
  const end = start + Math.round(speechSeconds * sampleRate);
  for (let i = start; i < end; i++) {
    const t = (i - start) / sampleRate;
    const slot = syllableSeconds + gapSeconds;
    const syllable = Math.floor(t / slot);
    const within = t - syllable * slot;
    if (within >= syllableSeconds) continue;
    // Raised-cosine envelope per syllable.
    const envelope = Math.sin((Math.PI * within) / syllableSeconds) ** 0.6;
    const formants = VOWELS[syllable % VOWELS.length] as [number, number, number];
    // A falling intonation with a little vibrato.
    const f0 = 150 - 25 * (t / speechSeconds) + 4 * Math.sin(2 * Math.PI * 5 * t);
    phase += (2 * Math.PI * f0) / sampleRate;
    let value = 0;
    for (let h = 1; h * f0 < sampleRate / 2 && h <= 30; h++) {
      value += (formantGain(h * f0, formants) / h ** 0.7) * Math.sin(h * phase);
    }
    samples[i] = envelope * (value * 0.35 + noise() * 0.04);
  }

  let peak = 0;
  for (const value of samples) peak = Math.max(peak, Math.abs(value));
  const scale = peak > 0 ? amplitude / peak : 0;

  const scaled = samples.map((value) => value * scale);
  const bytes = encodePcm16Wav([scaled], sampleRate);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
