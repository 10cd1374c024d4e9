/**
 * Turn-taking over speech probabilities (Silero VAD, one per 32 ms frame), as a pure class: the
 * browser feeds it the model's output (audio/neural-microphone.ts), the tests feed it numbers.
 * docs/decisions/0042-eager-end-of-turn.md, 0043-neural-voice-detection.md.
 *
 * - Speech starts once the probability stayed at or above `startThreshold` for `minSpeechMs`
 *   (a click or a breath is one frame, not speech).
 * - Once speaking, a frame at or above `keepThreshold` (hysteresis) is still voice; a pause is
 *   measured from the last voiced frame.
 * - A pause of `eagerMs` makes the utterance so far a `candidate` (the server starts answering
 *   it); speech that resumes before `commitMs` makes it `cancel`; a pause of `commitMs` is the
 *   end of the turn: `commit`. An utterance shorter than `minUtteranceMs` in all is a `misfire`
 *   (a cough): no candidate, nothing sent.
 * - Hesitant speech (docs/decisions/0053-hesitant-speech-and-reconnect.md): the commit waits
 *   until the server said the candidate's words are finished (`hear(false)`); unfinished words
 *   ("I was thinking about") or no word yet wait up to `unfinishedCommitMs`. Speech that starts
 *   within `continueMs` of a commit (the persona not speaking) `resumesTurn`: the fan went on
 *   after a pause longer than the wait, and the utterance continues from its first start.
 * - Echo rule: while the persona speaks, speech has to reach `bargeInThreshold` for
 *   `bargeInMs` before it counts; then `barge_in`. What leaks back of the persona's own voice
 *   through echo cancellation stays below that, so it does not interrupt itself.
 */

export interface TurnOptions {
  startThreshold: number;
  keepThreshold: number;
  minSpeechMs: number;
  /** Speech that comes back during a pause must last this long to count (ms). */
  resumeMs: number;
  eagerMs: number;
  commitMs: number;
  minUtteranceMs: number;
  /** The longest pause before a commit: words unfinished, or not heard back yet (ms). */
  unfinishedCommitMs: number;
  /** Speech starting this soon after a commit continues the committed utterance (ms). */
  continueMs: number;
  bargeInThreshold: number;
  bargeInMs: number;
  /** A turn with no speech at all for this long: `idle` (nothing worth keeping). */
  maxIdleMs: number;
}

export const DEFAULT_TURN_OPTIONS: TurnOptions = {
  startThreshold: 0.5,
  keepThreshold: 0.35,
  minSpeechMs: 64,
  resumeMs: 64,
  eagerMs: 96,
  commitMs: 704,
  minUtteranceMs: 200,
  unfinishedCommitMs: 1_600,
  continueMs: 1_500,
  bargeInThreshold: 0.8,
  bargeInMs: 192,
  maxIdleMs: 10_000,
};

export type TurnEvent =
  /**
   * Speech began (at `at`, the first frame of it); `resumesTurn`: right after a commit, so it
   * may be the committed utterance going on.
   */
  | { type: "speech_start"; at: number; resumesTurn?: boolean }
  /** The fan spoke over the persona: stop its audio now and tell the server. */
  | { type: "barge_in"; at: number }
  /** A short pause: send the utterance so far (from `from`) as a candidate. */
  | { type: "candidate"; at: number; from: number }
  /** Speech came back before the commit: cancel the candidate (the utterance goes on). */
  | { type: "cancel"; at: number }
  /** The pause reached the end of the turn: commit the candidate. */
  | { type: "commit"; at: number; lastVoiceAt: number }
  /** Speech too short to be an utterance: forget it. */
  | { type: "misfire"; at: number }
  /** No speech for `maxIdleMs`. */
  | { type: "idle"; at: number };

type Phase = "quiet" | "speaking" | "pausing";

export class TurnDetector {
  readonly options: TurnOptions;
  private phase: Phase = "quiet";
  /** First frame of a run of speech not yet confirmed (start or resume), or null. */
  private runStart: number | null = null;
  private speechStart = 0;
  private lastVoiceAt = 0;
  private candidateSent = false;
  /** What the server heard of the pending candidate: unfinished words or not (null: not yet). */
  private heardUnfinished: boolean | null = null;
  /** The last commit, while speech right after it would continue its utterance. */
  private committed: { at: number; speechStart: number } | null = null;
  private quietSince: number | null = null;

  constructor(options: Partial<TurnOptions> = {}) {
    this.options = { ...DEFAULT_TURN_OPTIONS, ...options };
  }

  get isSpeaking(): boolean {
    return this.phase !== "quiet";
  }

  /** Forgets the current turn (mute, listening paused). */
  reset(now: number): void {
    this.phase = "quiet";
    this.runStart = null;
    this.candidateSent = false;
    this.heardUnfinished = null;
    this.committed = null;
    this.quietSince = now;
  }

  /** The server transcribed the pending candidate: its words are unfinished or not. */
  hear(unfinished: boolean): void {
    if (this.candidateSent) this.heardUnfinished = unfinished;
  }

  /** One frame's speech probability at time `now` (ms, the frame's end). */
  push(probability: number, now: number, personaSpeaking = false): TurnEvent[] {
    const o = this.options;
    const events: TurnEvent[] = [];
    if (this.quietSince === null) this.quietSince = now;

    if (this.phase === "quiet") {
      const threshold = personaSpeaking ? o.bargeInThreshold : o.startThreshold;
      const needed = personaSpeaking ? o.bargeInMs : o.minSpeechMs;
      if (probability >= threshold) {
        this.runStart ??= now;
        if (now - this.runStart >= needed) {
          const committed = this.committed;
          const resumesTurn =
            !personaSpeaking && committed !== null && this.runStart - committed.at <= o.continueMs;
          this.phase = "speaking";
          this.speechStart = resumesTurn ? committed.speechStart : this.runStart;
          events.push({
            type: "speech_start",
            at: this.runStart,
            ...(resumesTurn ? { resumesTurn } : {}),
          });
          this.lastVoiceAt = now;
          this.candidateSent = false;
          this.heardUnfinished = null;
          this.committed = null;
          this.runStart = null;
          this.quietSince = null;
          if (personaSpeaking) events.push({ type: "barge_in", at: now });
        }
        return events;
      }
      this.runStart = null;
      if (now - this.quietSince >= o.maxIdleMs) {
        this.quietSince = now;
        events.push({ type: "idle", at: now });
      }
      return events;
    }

    if (this.phase === "speaking") {
      if (probability >= o.keepThreshold) this.lastVoiceAt = now;
      else this.phase = "pausing";
      return events;
    }

    // Pausing: speech must come back for `resumeMs` to end the pause.
    if (probability >= o.startThreshold) {
      this.runStart ??= now;
      if (now - this.runStart >= o.resumeMs) {
        this.phase = "speaking";
        this.lastVoiceAt = now;
        this.runStart = null;
        if (this.candidateSent) {
          this.candidateSent = false;
          this.heardUnfinished = null;
          events.push({ type: "cancel", at: now });
        }
      }
      return events;
    }
    if (probability < o.keepThreshold) this.runStart = null;
    const pause = now - this.lastVoiceAt;
    const spoken = this.lastVoiceAt - this.speechStart;
    if (!this.candidateSent && pause >= o.eagerMs) {
      if (spoken < o.minUtteranceMs) {
        this.reset(now);
        events.push({ type: "misfire", at: now });
        return events;
      }
      this.candidateSent = true;
      events.push({ type: "candidate", at: now, from: this.speechStart });
    }
    const finished = this.heardUnfinished === false;
    if (this.candidateSent && pause >= (finished ? o.commitMs : o.unfinishedCommitMs)) {
      const { lastVoiceAt, speechStart } = this;
      this.reset(now);
      this.committed = { at: now, speechStart };
      events.push({ type: "commit", at: now, lastVoiceAt });
    }
    return events;
  }
}
