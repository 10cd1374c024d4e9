import { CRISIS_TEXT } from "@twinline/contracts";
import { makeWavTone } from "@twinline/fakes";
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../../test/accounts.ts";
import { signUpWithCredits } from "../../../test/credits.ts";
import { sentChatCompletions } from "../../../test/fake-providers.ts";
import { startVoiceTestApp, type VoiceTestApp } from "../../../test/voice-app.ts";
import { connectVoice } from "../../../test/voice-client.ts";
import { adminAuditLog, chatMessages, crisisReferralsDaily } from "../../db/schema/index.ts";
import { utcDay } from "../../lib/utc-day.ts";

// Issue 25 item 2: a spoken self-harm sentence gets the caring message spoken, never the LLM.

const SPOKEN_CRISIS = "I don't want to be alive anymore.";
const HARMFUL_REPLY = "Here is exactly how to hurt yourself without anyone noticing.";

let voice: VoiceTestApp;

beforeAll(async () => {
  voice = await startVoiceTestApp();
  voice.openai.moderationFlags = {
    [SPOKEN_CRISIS]: ["self-harm", "self-harm/intent"],
    [HARMFUL_REPLY]: ["self-harm", "self-harm/instructions"],
  };
});
afterAll(() => voice?.close());

async function referralsToday(): Promise<number> {
  const [row] = await voice.t.app.database.db
    .select()
    .from(crisisReferralsDaily)
    .where(eq(crisisReferralsDaily.day, utcDay(new Date())));
  return row?.referrals ?? 0;
}

async function speakCrisis(source: "openai" | "offline") {
  const { t, openai } = voice;
  const fan = await signUpWithCredits(t, 100);
  const referrals = await referralsToday();
  const completions = sentChatCompletions(openai).length;
  const client = await connectVoice(voice.origin, fan.token);
  const started = await client.next("call_started");
  openai.transcription = SPOKEN_CRISIS;
  client.socket.send(makeWavTone(1));

  expect((await client.next("transcription")).text).toBe(SPOKEN_CRISIS);
  const response = await client.next("response");
  expect(response.text).toContain(CRISIS_TEXT.intro);
  expect(response.text).toContain("988");
  const complete = await client.next("audio_complete");
  expect(complete.segments).toBeGreaterThan(0);
  expect(client.audio().length).toBeGreaterThan(0);
  expect(openai.moderationInputs).toContain(SPOKEN_CRISIS);
  expect(sentChatCompletions(openai).length).toBe(completions);

  client.sendJson({ type: "end" });
  await client.next("call_ended");

  // Stored once the turn is final: the fan's words flagged and forgotten, the caring message.
  const rows = await t.app.database.db
    .select({
      id: chatMessages.id,
      sender: chatMessages.sender,
      productKind: chatMessages.productKind,
      forgotten: chatMessages.forgotten,
      flagCategory: chatMessages.flagCategory,
      flagSource: chatMessages.flagSource,
      callId: chatMessages.callId,
    })
    .from(chatMessages)
    .where(eq(chatMessages.userId, fan.user.id))
    .orderBy(chatMessages.seq);
  // The call's AI notice first (issue 25 item 1), then the fan's words and the caring message.
  expect(rows.map((row) => [row.sender, row.productKind])).toEqual([
    ["product", "ai-notice"],
    ["user", null],
    ["product", "crisis-support"],
  ]);
  expect(rows[1]).toMatchObject({ forgotten: true, flagSource: source });
  expect(rows[1]?.flagCategory).toMatch(/^self-harm/);
  expect(rows.every((row) => row.callId === started.callId)).toBe(true);
  expect(await referralsToday()).toBe(referrals + 1);
  const audit = await t.app.database.db
    .select({ action: adminAuditLog.action, after: adminAuditLog.after })
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.targetId, rows[1]?.id ?? ""), isNotNull(adminAuditLog.after)));
  expect(audit).toEqual([
    { action: "crisis.flag", after: expect.objectContaining({ channel: "call", source }) },
  ]);
}

describe("the crisis protocol on a live call", () => {
  it("speaks the caring message for a spoken self-harm sentence, with no LLM call", async () => {
    voice.openai.moderationFails = false;
    await speakCrisis("openai");
  });

  it("POST /api/voice-call/process answers the caring message, with no LLM call", async () => {
    const { t, openai } = voice;
    const fan = await signUpWithCredits(t, 100);
    const completions = sentChatCompletions(openai).length;
    const response = await call(t, "POST", "/api/voice-call/process", {
      token: fan.token,
      body: { text: SPOKEN_CRISIS },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(JSON.stringify(response.json())).toContain(CRISIS_TEXT.intro);
    expect(sentChatCompletions(openai).length).toBe(completions);
  });

  it("POST /api/voice-call/process replaces a reply giving self-harm instructions", async () => {
    const { t, openai } = voice;
    const fan = await signUpWithCredits(t, 100);
    const ordinary = openai.reply;
    openai.reply = [HARMFUL_REPLY];
    try {
      const response = await call(t, "POST", "/api/voice-call/process", {
        token: fan.token,
        body: { text: "Tell me a secret" },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(openai.moderationInputs).toContain(HARMFUL_REPLY);
      expect(JSON.stringify(response.json())).not.toContain(HARMFUL_REPLY);
      expect(JSON.stringify(response.json())).toContain(CRISIS_TEXT.intro);
    } finally {
      openai.reply = ordinary;
    }
  });

  it("a spoken reply giving self-harm instructions is never said: the caring message instead", async () => {
    const { t, openai } = voice;
    const fan = await signUpWithCredits(t, 100);
    const referrals = await referralsToday();
    const ordinary = openai.reply;
    openai.reply = [HARMFUL_REPLY];
    try {
      const client = await connectVoice(voice.origin, fan.token);
      const started = await client.next("call_started");
      openai.transcription = "Tell me a secret";
      client.socket.send(makeWavTone(1));
      expect((await client.next("transcription")).text).toBe("Tell me a secret");
      const response = await client.next("response");
      expect(response.text).toContain(CRISIS_TEXT.intro);
      expect(response.text).not.toContain(HARMFUL_REPLY);
      const complete = await client.next("audio_complete");
      expect(complete.replyId).toBe(response.replyId);
      expect(openai.moderationInputs).toContain(HARMFUL_REPLY);
      client.sendJson({ type: "end" });
      await client.next("call_ended");

      const rows = await t.app.database.db
        .select({
          sender: chatMessages.sender,
          productKind: chatMessages.productKind,
          content: chatMessages.content,
          flagCategory: chatMessages.flagCategory,
        })
        .from(chatMessages)
        .where(and(eq(chatMessages.userId, fan.user.id), eq(chatMessages.callId, started.callId)))
        .orderBy(chatMessages.seq);
      expect(rows.map((row) => [row.sender, row.productKind, row.flagCategory])).toEqual([
        ["product", "ai-notice", null],
        ["user", null, null],
        ["product", "crisis-support", "self-harm/instructions"],
      ]);
      expect(rows.map((row) => row.content)).not.toContain(HARMFUL_REPLY);
      expect(await referralsToday()).toBe(referrals + 1);
    } finally {
      openai.reply = ordinary;
    }
  });

  it("falls back to the offline phrases when the moderation provider fails", async () => {
    voice.openai.moderationFails = true;
    try {
      await speakCrisis("offline");
    } finally {
      voice.openai.moderationFails = false;
    }
  });
});
