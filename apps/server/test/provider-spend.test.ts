import { VOICE_MESSAGES, VOICE_TEXT_MAX_CHARS } from "@twinline/contracts";
import type { FakeElevenLabs } from "@twinline/fakes";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, messageOf } from "./accounts.ts";
import type { TestApp } from "./create-test-app.ts";
import { balanceOf, signUpWithCredits } from "./credits.ts";
import { startVoiceTestApp, type VoiceTestApp } from "./voice-app.ts";

// Issue 17 item 4: POST synthesize and process spend the operator's provider keys. A free
// account hammering them is refused (402 without the credits of a minute, 429 past the rate and
// the daily caps) and its credits never move; the providers hear only what the caps allow.
const PER_MINUTE = 5;
const DAILY_CHARACTERS = 3 * VOICE_TEXT_MAX_CHARS;
const DAILY_LLM_CALLS = 3;

let voice: VoiceTestApp;
let t: TestApp;
let elevenlabs: FakeElevenLabs;

beforeAll(async () => {
  voice = await startVoiceTestApp({
    env: {
      VOICE_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
      VOICE_DAILY_TTS_CHARACTERS: String(DAILY_CHARACTERS),
      VOICE_DAILY_LLM_CALLS: String(DAILY_LLM_CALLS),
    },
  });
  ({ t, elevenlabs } = voice);
});

afterAll(() => voice?.close());

const text = (length: number) => `${"Hello there. ".repeat(length).slice(0, length - 1)}!`;

async function hammer(token: string, route: "synthesize" | "process", times: number, size = 200) {
  const answers: LightMyRequestResponse[] = [];
  for (let i = 0; i < times; i++) {
    answers.push(
      await call(t, "POST", `/api/voice-call/${route}`, { token, body: { text: text(size) } }),
    );
  }
  return answers;
}

const statuses = (answers: LightMyRequestResponse[]) => answers.map((a) => a.statusCode);

describe("provider spend of synthesize and process", () => {
  it("a free account without the credits of a minute gets 402, then 429; nothing is spent", async () => {
    const free = await signUpWithCredits(t, 0);
    const heardBefore = elevenlabs.speech.length;
    for (const route of ["synthesize", "process"] as const) {
      const answers = await hammer(free.token, route, 12);
      expect(statuses(answers)).toEqual([
        ...Array(PER_MINUTE).fill(402),
        ...Array(12 - PER_MINUTE).fill(429),
      ]);
      expect(messageOf(answers[0] as LightMyRequestResponse)).toBe(
        VOICE_MESSAGES.insufficientCredits,
      );
      const limited = answers[PER_MINUTE] as LightMyRequestResponse;
      expect(messageOf(limited)).toBe(VOICE_MESSAGES.tooManyRequests);
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect(elevenlabs.speech.length).toBe(heardBefore);
    expect(await balanceOf(t, free.user.id)).toBe(0);
  });

  it("with the credits of a minute: the daily caps, then the rate; credits unchanged", async () => {
    const caller = await signUpWithCredits(t, 100);
    const heardBefore = elevenlabs.speech.length;
    const spoken = await hammer(caller.token, "synthesize", 6, VOICE_TEXT_MAX_CHARS);
    expect(statuses(spoken)).toEqual([200, 200, 200, 429, 429, 429]);
    expect(messageOf(spoken[3] as LightMyRequestResponse)).toBe(VOICE_MESSAGES.dailyLimit);
    expect(messageOf(spoken[5] as LightMyRequestResponse)).toBe(VOICE_MESSAGES.tooManyRequests);
    // The provider heard exactly the characters the cap allows.
    const heard = elevenlabs.speech.slice(heardBefore).map((entry) => entry.text.length);
    expect(heard.reduce((sum, length) => sum + length, 0)).toBe(DAILY_CHARACTERS);

    const replies = await hammer(caller.token, "process", 6);
    expect(statuses(replies)).toEqual([200, 200, 200, 429, 429, 429]);
    expect(messageOf(replies[3] as LightMyRequestResponse)).toBe(VOICE_MESSAGES.dailyLimit);
    expect(messageOf(replies[5] as LightMyRequestResponse)).toBe(VOICE_MESSAGES.tooManyRequests);
    expect(await balanceOf(t, caller.user.id)).toBe(100);

    // Another user's budget is their own.
    const other = await signUpWithCredits(t, 100);
    expect(statuses(await hammer(other.token, "process", 1))).toEqual([200]);
  });

  it("requests at once cannot overshoot the daily cap", async () => {
    const caller = await signUpWithCredits(t, 100);
    const heardBefore = elevenlabs.speech.length;
    const answers = await Promise.all(
      Array.from({ length: PER_MINUTE }, () =>
        call(t, "POST", "/api/voice-call/synthesize", {
          token: caller.token,
          body: { text: text(VOICE_TEXT_MAX_CHARS) },
        }),
      ),
    );
    expect(statuses(answers).sort()).toEqual([200, 200, 200, 429, 429]);
    expect(elevenlabs.speech.length - heardBefore).toBe(DAILY_CHARACTERS / VOICE_TEXT_MAX_CHARS);
  });

  it("text beyond the cap is 400 naming the field; voice turned off is 403", async () => {
    const caller = await signUpWithCredits(t, 100);
    const long = await call(t, "POST", "/api/voice-call/synthesize", {
      token: caller.token,
      body: { text: text(VOICE_TEXT_MAX_CHARS + 1) },
    });
    expect(long.statusCode).toBe(400);
    expect(messageOf(long)).toMatch(/^text: /);
    await t.app.settings.update({ aiProfile: { enableVoiceConversation: false } });
    try {
      const off = await hammer(caller.token, "process", 1);
      expect(statuses(off)).toEqual([403]);
      expect(messageOf(off[0] as LightMyRequestResponse)).toBe(VOICE_MESSAGES.voiceDisabled);
    } finally {
      await t.app.settings.update({ aiProfile: { enableVoiceConversation: true } });
    }
    expect(await balanceOf(t, caller.user.id)).toBe(100);
  });
});
