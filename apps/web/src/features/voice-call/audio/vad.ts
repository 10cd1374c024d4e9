/**
 * Voice activity and turn detection over microphone level samples (RMS of the time-domain signal,
 * 0..1), as a pure class: the browser feeds it AnalyserNode levels, the tests feed it numbers.
 *
 * - The noise floor adapts while nobody speaks (it follows a quieter room at once and a louder
 *   one slowly), so a fan or a hum does not count as speech.
 * - Speech starts only after the level has stayed above the threshold for `minSpeechMs`, so a
 *   click or a knock is ignored.
 * - An utterance ends after `silenceMs` below the (lower, hysteresis) release threshold.
 * - While the persona speaks, the threshold is raised and speech has to last `bargeInMs` before
 *   it counts: with echo cancellation on, what leaks back of the persona's own voice stays below
 *   it, while a user talking over the persona triggers a `barge_in`.
 */

export interface VadOptions {
  /** Silence that ends an utterance (ms). */
  silenceMs: number;
  /** Sustained level above the threshold before speech counts (ms). */
  minSpeechMs: number;
  /** A gap this short between loud moments keeps a speech candidate alive (ms). */
  gapMs: number;
  /** Speech needed to interrupt the persona while it speaks (ms). */
  bargeInMs: number;
  /** Speech is `ratio` × the noise floor, and at least `minLevel`. */
  ratio: number;
  minLevel: number;
  /** The same while the persona speaks (raised). */
  bargeInRatio: number;
  bargeInMinLevel: number;
  /** Once speaking, the level may fall to `release` × the threshold before it counts as silence. */
  release: number;
  /** The floor the detector starts from. */
  initialFloor: number;
  /** How fast the floor follows a louder room, and a quieter one (0..1 per sample). */
  floorRise: number;
  floorFall: number;
  /** A turn with no speech at all is dropped after this long (ms): see `idle`. */
  maxIdleMs: number;
}

export const DEFAULT_VAD_OPTIONS: VadOptions = {
  silenceMs: 700,
  minSpeechMs: 200,
  gapMs: 120,
  bargeInMs: 400,
  ratio: 3,
  minLevel: 0.015,
  bargeInRatio: 6,
  bargeInMinLevel: 0.06,
  release: 0.6,
  initialFloor: 0.005,
  floorRise: 0.02,
  floorFall: 0.3,
  maxIdleMs: 10_000,
};

export type VadEvent =
  /** Speech began (at `at`, when the level first rose). */
  | { type: "speech_start"; at: number }
  /** The user spoke over the persona: stop its audio and tell the server. */
  | { type: "barge_in"; at: number }
  /** The utterance is over: send what was recorded. `speechMs`: from first rise to last voice. */
  | { type: "utterance_end"; at: number; speechMs: number }
  /** No speech for `maxIdleMs`: the recording so far holds nothing worth sending. */
  | { type: "idle"; at: number };

export class VoiceActivityDetector {
  readonly options: VadOptions;
  private floor: number;
  /** When the level first rose above the threshold (a speech candidate), or null. */
  private riseAt: number | null = null;
  private lastAboveAt = 0;
  private speaking = false;
  private speechStart = 0;
  private lastVoiceAt = 0;
  /** Start of the current quiet stretch (for `idle`). */
  private quietSince: number | null = null;

  constructor(options: Partial<VadOptions> = {}) {
    this.options = { ...DEFAULT_VAD_OPTIONS, ...options };
    this.floor = this.options.initialFloor;
  }

  get noiseFloor(): number {
    return this.floor;
  }

  get isSpeaking(): boolean {
    return this.speaking;
  }

  /** The level speech has to exceed now. */
  threshold(personaSpeaking: boolean): number {
    const o = this.options;
    return personaSpeaking
      ? Math.max(o.bargeInMinLevel, this.floor * o.bargeInRatio)
      : Math.max(o.minLevel, this.floor * o.ratio);
  }

  /** Forgets the current turn (after mute, or when the recording restarts). */
  reset(now: number): void {
    this.riseAt = null;
    this.speaking = false;
    this.quietSince = now;
  }

  private adapt(level: number, rise: number): void {
    const rate = level > this.floor ? rise : this.options.floorFall;
    this.floor = Math.max(0.0005, this.floor + (level - this.floor) * rate);
  }

  /** One level sample at time `now` (ms); returns what happened, if anything. */
  push(level: number, now: number, personaSpeaking = false): VadEvent[] {
    const o = this.options;
    const events: VadEvent[] = [];
    const threshold = this.threshold(personaSpeaking);
    if (this.quietSince === null) this.quietSince = now;

    if (this.speaking) {
      // The floor keeps learning, slowly, so a steady noise mistaken for speech stops counting.
      if (!personaSpeaking) this.adapt(level, o.floorRise / 10);
      if (level >= threshold * o.release) {
        this.lastVoiceAt = now;
      } else if (now - this.lastVoiceAt >= o.silenceMs) {
        this.speaking = false;
        this.riseAt = null;
        this.quietSince = now;
        events.push({
          type: "utterance_end",
          at: now,
          speechMs: this.lastVoiceAt - this.speechStart,
        });
      }
      return events;
    }

    if (level >= threshold) {
      if (this.riseAt === null) this.riseAt = now;
      this.lastAboveAt = now;
      const needed = personaSpeaking ? o.bargeInMs : o.minSpeechMs;
      if (now - this.riseAt >= needed) {
        this.speaking = true;
        this.speechStart = this.riseAt;
        this.lastVoiceAt = now;
        this.quietSince = null;
        events.push({ type: "speech_start", at: this.riseAt });
        if (personaSpeaking) events.push({ type: "barge_in", at: now });
      }
      return events;
    }

    // Quiet: a gap between syllables keeps the candidate, a lone spike is forgotten; the floor
    // learns the room (not from the persona's echo, which would raise it while it plays).
    if (this.riseAt !== null && now - this.lastAboveAt > o.gapMs) this.riseAt = null;
    if (!personaSpeaking) this.adapt(level, o.floorRise);
    if (now - this.quietSince >= o.maxIdleMs) {
      this.quietSince = now;
      events.push({ type: "idle", at: now });
    }
    return events;
  }
}

/** RMS of time-domain samples centred on 0 (an AnalyserNode's getFloatTimeDomainData). */
export function rmsLevel(samples: ArrayLike<number>): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    const value = samples[i] ?? 0;
    sum += value * value;
  }
  return Math.sqrt(sum / samples.length);
}

/**
 * The spec's recording formats in its order of preference, then MP4 (AAC), the one Safari on an
 * iPhone records (the server recognises it); the first the browser's MediaRecorder supports is
 * used, or null when none is (then the browser cannot record).
 */
export const RECORDING_FORMATS = [
  "audio/mpeg",
  "audio/wav",
  "audio/webm;codecs=opus",
  "audio/webm",
  "audio/ogg;codecs=opus",
  "audio/ogg",
  "audio/mp4",
] as const;

export function pickRecordingFormat(isTypeSupported: (type: string) => boolean): string | null {
  return RECORDING_FORMATS.find((type) => isTypeSupported(type)) ?? null;
}
