import { describe, expect, it } from "vitest";
import { TurnDetector, type TurnEvent } from "./turn-detector";

const FRAME = 32;

/**
 * Feeds `probabilities` one frame each from `start`; answers every event with its time. Each
 * candidate is heard back at once as `heard` (finished words by default; null: never heard).
 */
function feed(
  detector: TurnDetector,
  probabilities: number[],
  {
    start = 0,
    persona = false,
    heard = "finished",
  }: { start?: number; persona?: boolean; heard?: "finished" | "unfinished" | null } = {},
) {
  const events: TurnEvent[] = [];
  probabilities.forEach((p, i) => {
    const now = detector.push(p, start + (i + 1) * FRAME, persona);
    if (heard && now.some((event) => event.type === "candidate")) {
      detector.hear(heard === "unfinished");
    }
    events.push(...now);
  });
  return events;
}

const frames = (ms: number, p: number) => Array.from({ length: Math.round(ms / FRAME) }, () => p);
const types = (events: TurnEvent[]) => events.map((event) => event.type);

describe("TurnDetector", () => {
  it("speech, a short pause: a candidate, then at the end of the turn its commit", () => {
    const detector = new TurnDetector();
    const events = feed(detector, [...frames(64, 0.02), ...frames(960, 0.9), ...frames(800, 0.05)]);
    expect(types(events)).toEqual(["speech_start", "candidate", "commit"]);
    const [, candidate, commit] = events as [TurnEvent, TurnEvent, TurnEvent];
    const lastVoice = 64 + 960;
    const { eagerMs, commitMs } = detector.options;
    // The candidate goes up after the eager pause, the commit after the end-of-turn pause.
    expect(candidate.at - lastVoice).toBeGreaterThanOrEqual(eagerMs);
    expect(candidate.at - lastVoice).toBeLessThan(eagerMs + FRAME);
    expect(commit.at - lastVoice).toBeGreaterThanOrEqual(commitMs);
    expect(commit).toMatchObject({ lastVoiceAt: lastVoice });
  });

  it("a pause mid-sentence longer than the eager pause: candidate, then cancel when speech resumes, then one commit", () => {
    const detector = new TurnDetector();
    const events = feed(detector, [
      ...frames(640, 0.9),
      ...frames(480, 0.1), // a 480 ms pause: past the eager pause, short of the end of turn
      ...frames(640, 0.85),
      ...frames(800, 0.05),
    ]);
    expect(types(events)).toEqual(["speech_start", "candidate", "cancel", "candidate", "commit"]);
    // The second candidate carries the whole utterance: it starts where the first did.
    const candidates = events.filter((event) => event.type === "candidate");
    expect(candidates[1]).toMatchObject({ from: (candidates[0] as { from: number }).from });
  });

  it("a pause shorter than the eager pause sends nothing; syllable dips above the keep threshold are speech", () => {
    const detector = new TurnDetector();
    const events = feed(detector, [
      ...frames(320, 0.9),
      ...frames(320, 0.4), // under the start threshold, above the keep one
      ...frames(320, 0.9),
      ...frames(64, 0.1),
      ...frames(320, 0.9),
    ]);
    expect(types(events)).toEqual(["speech_start"]);
    expect(detector.isSpeaking).toBe(true);
  });

  it("a single loud frame during a pause does not cancel the candidate", () => {
    const detector = new TurnDetector();
    const events = feed(detector, [
      ...frames(640, 0.9),
      ...frames(288, 0.05),
      0.9,
      ...frames(640, 0.05),
    ]);
    expect(types(events)).toEqual(["speech_start", "candidate", "commit"]);
  });

  it("a click or a cough is not an utterance: one frame is nothing, a short burst a misfire", () => {
    const detector = new TurnDetector();
    expect(types(feed(detector, [0.02, 0.95, 0.02, 0.02]))).toEqual([]);
    const burst = feed(detector, [...frames(128, 0.9), ...frames(480, 0.02)], { start: 1000 });
    expect(types(burst)).toEqual(["speech_start", "misfire"]);
    expect(detector.isSpeaking).toBe(false);
  });

  it("echo rule: the persona's own voice leaking back does not interrupt; the fan speaking over it does", () => {
    const detector = new TurnDetector();
    // Echo: speech-like but under the barge-in threshold, for a long time.
    expect(types(feed(detector, frames(2000, 0.7), { persona: true }))).toEqual([]);
    // A short loud burst is not enough either.
    expect(types(feed(detector, frames(128, 0.95), { persona: true, start: 2000 }))).toEqual([]);
    const events = feed(detector, [0.1, ...frames(320, 0.95)], { persona: true, start: 3000 });
    expect(types(events)).toEqual(["speech_start", "barge_in"]);
    // The same speech without the persona starts at once.
    const quiet = new TurnDetector();
    expect(types(feed(quiet, frames(128, 0.7)))).toEqual(["speech_start"]);
  });

  it("idle after a long stretch without speech; reset forgets a turn", () => {
    const detector = new TurnDetector({ maxIdleMs: 1000 });
    expect(types(feed(detector, frames(1100, 0.01)))).toEqual(["idle"]);
    feed(detector, frames(320, 0.9), { start: 2000 });
    detector.reset(2400);
    expect(detector.isSpeaking).toBe(false);
    expect(types(feed(detector, frames(800, 0.01), { start: 2400 }))).toEqual([]);
  });

  it("with the eager pause and the longest wait at the end of turn (the old behaviour), candidate and commit come together", () => {
    const detector = new TurnDetector({ eagerMs: 704, unfinishedCommitMs: 704 });
    const events = feed(detector, [...frames(640, 0.9), ...frames(800, 0.05)]);
    expect(types(events)).toEqual(["speech_start", "candidate", "commit"]);
    expect(events[1]?.at).toBe(events[2]?.at);
  });

  describe("hesitant speech (issue 24)", () => {
    const lastVoice = 960;
    const pauseAfter = (speech: TurnEvent[]) => {
      const commit = speech.find((event) => event.type === "commit");
      return commit === undefined ? null : commit.at - lastVoice;
    };

    it.each([
      ["finished words", "finished", "commitMs"],
      ["unfinished words", "unfinished", "unfinishedCommitMs"],
      ["words not heard back yet", null, "unfinishedCommitMs"],
    ] as const)("%s commit after %s… (%s)", (_label, heard, wait) => {
      const detector = new TurnDetector();
      const events = feed(detector, [...frames(960, 0.9), ...frames(2000, 0.05)], { heard });
      expect(types(events)).toEqual(["speech_start", "candidate", "commit"]);
      const pause = pauseAfter(events) ?? Number.NaN;
      expect(pause).toBeGreaterThanOrEqual(detector.options[wait]);
      expect(pause).toBeLessThan(detector.options[wait] + FRAME);
    });

    it("a 1.2 s pause after unfinished words is not the end of the turn: cancel, and one commit at the end", () => {
      const detector = new TurnDetector();
      const events = feed(
        detector,
        [...frames(960, 0.9), ...frames(1200, 0.05), ...frames(640, 0.9), ...frames(2000, 0.05)],
        { heard: "unfinished" },
      );
      expect(types(events)).toEqual(["speech_start", "candidate", "cancel", "candidate", "commit"]);
    });

    it("the same pause after finished words ends the turn", () => {
      const detector = new TurnDetector();
      const events = feed(detector, [...frames(960, 0.9), ...frames(1200, 0.05)]);
      expect(types(events)).toEqual(["speech_start", "candidate", "commit"]);
    });

    it("speech right after a commit resumes the turn from its first start; later speech, or over the persona, is a new turn", () => {
      const detector = new TurnDetector();
      const first = feed(detector, [...frames(960, 0.9), ...frames(800, 0.05)]);
      const commit = first.find((event) => event.type === "commit");
      expect(commit).toBeDefined();
      // Back within continueMs of the commit: the same utterance.
      const resumed = feed(detector, [...frames(640, 0.9), ...frames(800, 0.05)], {
        start: 64 * FRAME,
      });
      expect(resumed[0]).toMatchObject({ type: "speech_start", resumesTurn: true });
      const candidate = resumed.find((event) => event.type === "candidate");
      expect(candidate).toMatchObject({ from: (first[0] as { at: number }).at });

      // After continueMs: a new turn.
      const later = new TurnDetector();
      feed(later, [...frames(960, 0.9), ...frames(800, 0.05)]);
      const next = feed(later, frames(320, 0.9), { start: 1760 + 1600 });
      expect(next).toEqual([{ type: "speech_start", at: expect.any(Number) }]);

      // Over the persona's reply: barge-in, not a continuation.
      const over = new TurnDetector();
      feed(over, [...frames(960, 0.9), ...frames(800, 0.05)]);
      const barge = feed(over, frames(320, 0.95), { start: 1800, persona: true });
      expect(types(barge)).toEqual(["speech_start", "barge_in"]);
      expect(barge[0]).not.toHaveProperty("resumesTurn");
    });
  });
});
