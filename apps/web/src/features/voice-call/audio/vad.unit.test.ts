import { describe, expect, it } from "vitest";
import { pickRecordingFormat, rmsLevel, type VadEvent, VoiceActivityDetector } from "./vad";

const STEP = 20; // ms between level samples, as the microphone loop reads them

/** Feeds `ms` of a constant level; returns the events with the time they came. */
function feed(
  vad: VoiceActivityDetector,
  clock: { now: number },
  level: number,
  ms: number,
  personaSpeaking = false,
): VadEvent[] {
  const events: VadEvent[] = [];
  for (let t = 0; t < ms; t += STEP) {
    clock.now += STEP;
    events.push(...vad.push(level, clock.now, personaSpeaking));
  }
  return events;
}

const types = (events: VadEvent[]) => events.map((e) => e.type);

describe("voice activity detector", () => {
  it("finds one utterance: speech, then about 0.7 s of silence ends it", () => {
    const vad = new VoiceActivityDetector();
    const clock = { now: 0 };
    expect(feed(vad, clock, 0.002, 1000)).toEqual([]);
    const start = feed(vad, clock, 0.2, 1200);
    expect(types(start)).toEqual(["speech_start"]);
    // 0.6 s of silence is a pause inside the sentence, not its end.
    expect(feed(vad, clock, 0.002, 600)).toEqual([]);
    const end = feed(vad, clock, 0.002, 200);
    expect(types(end)).toEqual(["utterance_end"]);
    const event = end[0] as Extract<VadEvent, { type: "utterance_end" }>;
    expect(event.speechMs).toBeGreaterThanOrEqual(1180);
    expect(event.speechMs).toBeLessThanOrEqual(1200);
  });

  it("ignores clicks shorter than the minimum speech duration", () => {
    const vad = new VoiceActivityDetector();
    const clock = { now: 0 };
    feed(vad, clock, 0.002, 500);
    for (let i = 0; i < 10; i++) {
      expect(feed(vad, clock, 0.5, 100)).toEqual([]);
      expect(feed(vad, clock, 0.002, 300)).toEqual([]);
    }
    expect(vad.isSpeaking).toBe(false);
  });

  it("keeps a short dip inside speech (hysteresis) and does not split the utterance", () => {
    const vad = new VoiceActivityDetector();
    const clock = { now: 0 };
    feed(vad, clock, 0.002, 500);
    const events = [
      ...feed(vad, clock, 0.1, 500),
      ...feed(vad, clock, 0.002, 400),
      ...feed(vad, clock, 0.1, 500),
      ...feed(vad, clock, 0.002, 800),
    ];
    expect(types(events)).toEqual(["speech_start", "utterance_end"]);
  });

  it("adapts its noise floor: a steady hum is not speech, speech above it is", () => {
    const vad = new VoiceActivityDetector();
    const clock = { now: 0 };
    // A loud room: the first moments look like speech, then the floor learns the hum and that
    // "utterance" ends; after that the hum never starts one again.
    const first = feed(vad, clock, 0.03, 9000);
    expect(types(first)).toEqual(["speech_start", "utterance_end"]);
    const hum = feed(vad, clock, 0.03, 8000);
    expect(types(hum)).not.toContain("speech_start");
    expect(vad.noiseFloor).toBeGreaterThan(0.02);
    expect(types(feed(vad, clock, 0.3, 400))).toEqual(["speech_start"]);
  });

  it("keeps a long sentence with syllable dips as one utterance", () => {
    const vad = new VoiceActivityDetector();
    const clock = { now: 0 };
    feed(vad, clock, 0.002, 500);
    const events: VadEvent[] = [];
    // 12 s of speech: 160 ms voiced, 60 ms between syllables.
    for (let i = 0; i < 55; i++) {
      events.push(...feed(vad, clock, 0.12 + (i % 3) * 0.04, 160));
      events.push(...feed(vad, clock, 0.01, 60));
    }
    events.push(...feed(vad, clock, 0.002, 800));
    expect(types(events)).toEqual(["speech_start", "utterance_end"]);
  });

  it("follows a quieter room at once", () => {
    const vad = new VoiceActivityDetector({ initialFloor: 0.05 });
    const clock = { now: 0 };
    feed(vad, clock, 0.001, 400);
    expect(vad.noiseFloor).toBeLessThan(0.005);
    expect(types(feed(vad, clock, 0.05, 400))).toEqual(["speech_start"]);
  });

  it("while the persona speaks, its echo does not interrupt, sustained speech does", () => {
    const vad = new VoiceActivityDetector();
    const clock = { now: 0 };
    feed(vad, clock, 0.002, 1000);
    // Residual echo of the persona (well above the normal threshold, below the raised one).
    expect(feed(vad, clock, 0.04, 3000, true)).toEqual([]);
    // A short exclamation is not enough either.
    expect(feed(vad, clock, 0.3, 300, true)).toEqual([]);
    feed(vad, clock, 0.002, 100, true);
    // The floor did not learn from the echo.
    expect(vad.noiseFloor).toBeLessThan(0.005);
    const barge = feed(vad, clock, 0.3, 600, true);
    expect(types(barge)).toEqual(["speech_start", "barge_in"]);
    expect(types(feed(vad, clock, 0.002, 800, false))).toEqual(["utterance_end"]);
  });

  it("reports an idle stretch so a recording without speech is dropped", () => {
    const vad = new VoiceActivityDetector({ maxIdleMs: 2000 });
    const clock = { now: 0 };
    expect(types(feed(vad, clock, 0.002, 2100))).toEqual(["idle"]);
    expect(types(feed(vad, clock, 0.002, 2000))).toEqual(["idle"]);
  });

  it("forgets a half-started utterance on reset", () => {
    const vad = new VoiceActivityDetector();
    const clock = { now: 0 };
    feed(vad, clock, 0.002, 200);
    feed(vad, clock, 0.3, 400);
    expect(vad.isSpeaking).toBe(true);
    vad.reset(clock.now);
    expect(vad.isSpeaking).toBe(false);
    expect(feed(vad, clock, 0.002, 1000)).toEqual([]);
  });
});

describe("rmsLevel", () => {
  it("is the root mean square of the samples", () => {
    expect(rmsLevel([])).toBe(0);
    expect(rmsLevel([0.5, -0.5, 0.5, -0.5])).toBeCloseTo(0.5);
    expect(rmsLevel([0, 0, 0, 0])).toBe(0);
  });
});

describe("pickRecordingFormat", () => {
  it("takes the first supported format in the spec's order", () => {
    const chromium = new Set(["audio/webm;codecs=opus", "audio/webm", "audio/ogg"]);
    expect(pickRecordingFormat((t) => chromium.has(t))).toBe("audio/webm;codecs=opus");
    expect(pickRecordingFormat((t) => t === "audio/ogg;codecs=opus" || t === "audio/ogg")).toBe(
      "audio/ogg;codecs=opus",
    );
    expect(pickRecordingFormat(() => true)).toBe("audio/mpeg");
    // Safari on an iPhone records MP4 only.
    expect(pickRecordingFormat((t) => t === "audio/mp4")).toBe("audio/mp4");
    expect(pickRecordingFormat(() => false)).toBeNull();
  });
});
