import { aiNoticeText, VOICE_MESSAGES, VOICE_TEXT_MAX_CHARS } from "@twinline/contracts";
import { type FakeElevenLabs, type FakeOpenAi, makeWavTone } from "@twinline/fakes";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VOICE_STYLE } from "../src/modules/voice/engine.ts";
import { call, messageOf } from "./accounts.ts";
import type { TestApp } from "./create-test-app.ts";
import { balanceOf, signUpWithCredits } from "./credits.ts";
import { sentChatCompletions } from "./fake-providers.ts";
import { until } from "./until.ts";
import { startVoiceTestApp, type VoiceTestApp } from "./voice-app.ts";
import { connectVoice, type VoiceClient } from "./voice-client.ts";

// Issue 17 item 4: POST synthesize and process spend the operator's provider keys. A free
// account hammering them is refused (402 without the credits of a minute, 429 past the rate and
// the daily caps) and its credits never move; the providers hear only what the caps allow.
const PER_MINUTE = 5;
const DAILY_CHARACTERS = 3 * VOICE_TEXT_MAX_CHARS;
const DAILY_LLM_CALLS = 3;
const CALL_UTTERANCES_PER_MINUTE = 4;

let voice: VoiceTestApp;
let t: TestApp;
let elevenlabs: FakeElevenLabs;
let openai: FakeOpenAi;

beforeAll(async () => {
  voice = await startVoiceTestApp({
    env: {
      VOICE_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
      VOICE_DAILY_TTS_CHARACTERS: String(DAILY_CHARACTERS),
      VOICE_DAILY_LLM_CALLS: String(DAILY_LLM_CALLS),
      VOICE_CALL_UTTERANCES_PER_MINUTE: String(CALL_UTTERANCES_PER_MINUTE),
    },
  });
  ({ t, elevenlabs, openai } = voice);
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

// Issue 24 item 1: the call's socket spent the keys without limit (300 utterances in 15 s made
// 294 speech-to-text and 343 LLM requests). Every provider request of a call passes the same
// per-user caps: a refused utterance gets an `error` the fan can read, nothing reaches the
// provider, and the call stays up.
describe("provider spend of a live call", () => {
  const UTTERANCE = makeWavTone(1);
  /** The LLM requests of call replies (not the memory's summary refreshes). */
  const callReplies = () =>
    sentChatCompletions(openai).filter((sent) => sent.messages[0]?.content.includes(VOICE_STYLE));

  /** Sends one utterance and answers the message that ended its answer (error or audio_complete). */
  async function say(client: VoiceClient) {
    const from = client.received.length;
    client.socket.send(UTTERANCE);
    const last = () => {
      const entry = client.received.at(-1);
      return client.received.length > from && entry?.kind === "json" ? entry.message : undefined;
    };
    await until(
      () => last()?.type === "audio_complete" || last()?.type === "error",
      "the utterance's answer",
    );
    return last();
  }

  it("utterances past the rate and replies past the daily cap reach no provider; the call stays up", async () => {
    const caller = await signUpWithCredits(t, 100);
    const client = await connectVoice(voice.origin, caller.token);
    await client.next("call_started");
    const heard = openai.transcriptionModels.length;
    const replied = callReplies().length;

    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await say(client));
    expect(answers.map((answer) => answer?.type)).toEqual([
      "audio_complete",
      "audio_complete",
      "audio_complete",
      "error",
      "error",
      "error",
    ]);
    // The fourth was heard, but today's replies were used up; the rest were not even heard.
    expect(answers[3]).toEqual({ type: "error", message: VOICE_MESSAGES.dailyLimit });
    expect(answers[4]).toEqual({ type: "error", message: VOICE_MESSAGES.tooManyRequests });
    expect(openai.transcriptionModels.length - heard).toBe(CALL_UTTERANCES_PER_MINUTE);
    expect(callReplies().length - replied).toBe(DAILY_LLM_CALLS);

    // The REST route shares the daily cap: no reply left there either.
    const rest = await hammer(caller.token, "process", 1);
    expect(statuses(rest)).toEqual([429]);
    expect(messageOf(rest[0] as LightMyRequestResponse)).toBe(VOICE_MESSAGES.dailyLimit);

    // Still a live call: it ends when the fan hangs up, one minute charged.
    client.sendJson({ type: "end" });
    expect(await client.next("call_ended")).toMatchObject({ message: VOICE_MESSAGES.callEnded });
    expect(await client.closed).toBe(1000);
    expect(await balanceOf(t, caller.user.id)).toBe(95);
  });

  it("a reply's speech past the daily characters is not sent to the voice provider", async () => {
    const caller = await signUpWithCredits(t, 100);
    // Today's characters spent through synthesize.
    expect(statuses(await hammer(caller.token, "synthesize", 3, VOICE_TEXT_MAX_CHARS))).toEqual([
      200, 200, 200,
    ]);
    const before = elevenlabs.speech.length;
    const client = await connectVoice(voice.origin, caller.token);
    await client.next("call_started");
    // The product's AI notice is spoken even so (before call_started): it is never refused.
    expect(elevenlabs.speech.slice(before).map((entry) => entry.text)).toEqual([
      aiNoticeText("AI Celebrity Assistant"),
    ]);
    const spoken = elevenlabs.speech.length;
    const from = client.received.length;
    client.socket.send(UTTERANCE);
    const answered = () =>
      client.received
        .slice(from)
        .flatMap((entry) => (entry.kind === "json" ? [entry.message] : []));
    // The caption and the refusal of its speech come in either order: the refusal as soon as
    // the first sentence is turned down, the caption once the reply is whole.
    await until(
      () =>
        answered().some((message) => message.type === "error") &&
        answered().some((message) => message.type === "response"),
      "the reply's caption and the refusal of its speech",
    );
    expect(answered().filter((message) => message.type === "error")).toEqual([
      { type: "error", message: VOICE_MESSAGES.dailyLimit },
    ]);
    expect(client.audio()).toEqual([]);
    expect(elevenlabs.speech.length).toBe(spoken);
    client.sendJson({ type: "end" });
    expect(await client.next("call_ended")).toMatchObject({ message: VOICE_MESSAGES.callEnded });
  });
});
