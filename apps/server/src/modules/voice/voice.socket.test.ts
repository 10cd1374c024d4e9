import { Writable } from "node:stream";
import {
  AUTH_MESSAGES,
  aiNoticeText,
  callCost,
  callDetailResponseSchema,
  chatLogsResponseSchema,
  messagesPageResponseSchema,
  VOICE_CLOSE_CODES,
  VOICE_MESSAGES,
  VOICE_RESUME_GRACE_MS,
} from "@twinline/contracts";
import {
  DEFAULT_FAKE_TRANSCRIPTION,
  type FakeElevenLabs,
  type FakeOpenAi,
  makeWavTone,
} from "@twinline/fakes";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminSession, call } from "../../../test/accounts.ts";
import type { TestApp } from "../../../test/create-test-app.ts";
import { balanceOf, signUpWithCredits } from "../../../test/credits.ts";
import { sentChatCompletions } from "../../../test/fake-providers.ts";
import { createManualClock, type ManualClock } from "../../../test/manual-clock.ts";
import { until } from "../../../test/until.ts";
import { startVoiceTestApp, type VoiceTestApp } from "../../../test/voice-app.ts";
import { connectVoice } from "../../../test/voice-client.ts";
import { creditLedger, users, voiceCalls } from "../../db/schema/index.ts";
import { labelAiGenerated } from "../../providers/tts/ai-label.ts";

const REPLY = [
  "Hello there, it is lovely",
  " to hear you. I am doing",
  " great today!",
  " Talk soon.",
];
const UTTERANCE = makeWavTone(1);
/** The fake ElevenLabs' MP3 as the app sends it on: marked as AI-generated for the site. */
const labelledMp3 = (audio: Buffer) =>
  labelAiGenerated({ format: "audio/mpeg", audio }, "Twinline").audio;
const RATE = 5;

let voice: VoiceTestApp;
let t: TestApp;
let origin: string;
let openai: FakeOpenAi;
let elevenlabs: FakeElevenLabs;
let clock: ManualClock;
/** What the app logged at error level or worse (a 1011's duplicate-key error would be here). */
const loggedErrors: string[] = [];

beforeAll(async () => {
  clock = createManualClock();
  voice = await startVoiceTestApp({
    voiceClock: clock,
    logger: {
      level: "error",
      stream: new Writable({
        write(chunk, _encoding, done) {
          loggedErrors.push(String(chunk));
          done();
        },
      }),
    },
  });
  ({ t, origin, openai, elevenlabs } = voice);
});

afterAll(() => voice?.close());

beforeEach(() => {
  openai.reply = [...REPLY];
  openai.gapMs = 0;
  openai.hang = false;
});

async function callRows(userId: string) {
  return t.app.database.db.select().from(voiceCalls).where(eq(voiceCalls.userId, userId));
}

/** The ledger's sum for one call (negative: what it took). */
async function ledgerSum(callId: string): Promise<number> {
  const [row] = await t.app.database.db
    .select({ sum: sql<string>`coalesce(sum(${creditLedger.amount}), 0)` })
    .from(creditLedger)
    .where(sql`${creditLedger.sourceKey} like ${`call:${callId}:%`}`);
  return Number(row?.sum ?? 0);
}

/** The messages of the last chat completion the LLM was sent. */
const lastChatMessages = () => sentChatCompletions(openai).at(-1)?.messages ?? [];

describe("voice call socket", () => {
  it("a whole call: utterance, transcription, streamed reply, spoken sentence by sentence, hang-up", async () => {
    const session = await signUpWithCredits(t, 100);
    const client = await connectVoice(origin, session.token);
    const started = await client.next("call_started");
    expect(started).toMatchObject({
      creditsPerMinute: RATE,
      creditsRemaining: 95,
      stt: "openai",
      tts: "elevenlabs",
    });

    elevenlabs.speech.length = 0;
    client.socket.send(UTTERANCE);
    expect(await client.next("transcription")).toEqual({
      type: "transcription",
      text: DEFAULT_FAKE_TRANSCRIPTION,
    });
    const audioStart = await client.next("audio_start");
    expect(audioStart.format).toBe("audio/mpeg");
    const response = await client.next("response");
    expect(response.text).toBe(REPLY.join(""));
    const complete = await client.next("audio_complete");
    expect(complete).toMatchObject({ replyId: audioStart.replyId, segments: 3 });
    expect(complete.interrupted).toBeUndefined();

    // Each sentence spoken on its own (the requests run in parallel); every frame a whole MP3.
    expect(elevenlabs.speech.map((entry) => entry.text).sort()).toEqual([
      "Hello there, it is lovely to hear you.",
      "I am doing great today!",
      "Talk soon.",
    ]);
    const audio = client.audio();
    expect(audio).toHaveLength(3);
    // The provider's MP3, behind the ID3 comment that marks it as AI-generated speech.
    for (const frame of audio) expect(frame.equals(labelledMp3(elevenlabs.audio))).toBe(true);
    // The audio sits between audio_start and audio_complete.
    const order = client.received.map((entry) =>
      entry.kind === "json" ? entry.message.type : "audio",
    );
    expect(order.indexOf("audio_start")).toBeLessThan(order.indexOf("audio"));
    expect(order.lastIndexOf("audio")).toBeLessThan(order.indexOf("audio_complete"));
    // The transcription went through the SDK with the configured model; the LLM got the persona.
    expect(openai.transcriptionModels.at(-1)).toBe("whisper-1");
    const sent = lastChatMessages();
    expect(sent[0]?.content).toMatch(/^You are AI Celebrity Assistant\./);
    expect(sent.at(-1)).toEqual({ role: "user", content: DEFAULT_FAKE_TRANSCRIPTION });

    // A second utterance carries the first exchange as history.
    client.socket.send(UTTERANCE);
    await client.next("audio_complete");
    expect(lastChatMessages().slice(1)).toEqual([
      { role: "user", content: DEFAULT_FAKE_TRANSCRIPTION },
      { role: "assistant", content: REPLY.join("") },
      { role: "user", content: DEFAULT_FAKE_TRANSCRIPTION },
    ]);

    client.sendJson({ type: "end" });
    expect(await client.next("call_ended")).toMatchObject({ message: VOICE_MESSAGES.callEnded });
    expect(await client.closed).toBe(1000);
    const history = await call(t, "GET", "/api/voice-call/history", { token: session.token });
    expect(history.statusCode).toBe(200);
    const body = history.json();
    expect(body.pagination).toEqual({ total: 1, page: 1, limit: 10, pages: 1 });
    expect(body.calls[0]).toMatchObject({ creditsConsumed: RATE });
    expect(body.calls[0].endTime).not.toBeNull();
    expect(await balanceOf(t, session.user.id)).toBe(95);
  });

  it("barge-in cancels the rest of the reply on the server", async () => {
    const session = await signUpWithCredits(t, 100);
    openai.reply = [
      "First sentence is here.",
      " Second one follows now.",
      " Third one.",
      " Fourth one.",
      " Fifth.",
    ];
    openai.gapMs = 1_000;
    const client = await connectVoice(origin, session.token);
    const { callId } = await client.next("call_started");
    const cutBefore = openai.streamsCutShort;
    client.socket.send(UTTERANCE);
    // The first sentence is spoken once the second piece shows where it ends.
    await client.next("audio_start");
    client.sendJson({ type: "interrupt" });
    const complete = await client.next("audio_complete");
    expect(complete).toMatchObject({ interrupted: true, segments: 1 });
    // The text is what was spoken, not what the model had written by then.
    const response = await client.next("response");
    expect(response).toMatchObject({ interrupted: true, text: "First sentence is here." });
    // The provider saw its client go: the LLM stream was aborted, not read to the end.
    await until(() => openai.streamsCutShort !== cutBefore, "the aborted LLM stream");
    expect(openai.streamsCutShort).toBe(cutBefore + 1);
    const framesAtCut = client.audio().length;
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(client.audio().length).toBe(framesAtCut);
    client.socket.close(1000);
    await client.closed;
    // The call's transcript (the chat and call history) keeps what was spoken, marked.
    let transcript: Array<{ sender: string; content: string }> = [];
    await until(async () => {
      const detail = await call(t, "GET", `/api/voice-call/calls/${callId}`, {
        token: session.token,
      });
      // The fan's and the persona's turns (the AI notice is tested in voice.notice.test.ts).
      transcript = callDetailResponseSchema
        .parse(detail.json())
        .transcript.filter((turn) => turn.sender !== "product");
      return transcript.length === 2;
    }, "the call's turns");
    expect(transcript.map(({ sender, content }) => ({ sender, content }))).toEqual([
      { sender: "user", content: DEFAULT_FAKE_TRANSCRIPTION },
      { sender: "ai", content: `First sentence is here. ${VOICE_MESSAGES.interruptedMark}` },
    ]);
  });

  it("credits running out mid-call: a warning before the last minute, then call_ended, the balance exact", async () => {
    const session = await signUpWithCredits(t, 17);
    const client = await connectVoice(origin, session.token);
    const started = await client.next("call_started");
    expect(started.creditsRemaining).toBe(12);

    await clock.advance(60_000); // minute 2 starts: 12 - 5 = 7, one more minute affordable
    const warning = await client.next("credit_warning");
    expect(warning).toMatchObject({ creditsRemaining: 7 });
    expect(await balanceOf(t, session.user.id)).toBe(7);

    await clock.advance(60_000); // minute 3: 7 - 5 = 2
    expect(await balanceOf(t, session.user.id)).toBe(2);
    await clock.advance(60_000); // minute 4 cannot be paid
    expect(await client.next("call_ended")).toMatchObject({
      message: VOICE_MESSAGES.creditsRunOut,
      reason: "credits",
    });
    expect(await client.closed).toBe(1000);

    expect(await balanceOf(t, session.user.id)).toBe(2);
    const [row] = await callRows(session.user.id);
    expect(row).toMatchObject({
      minutesCharged: 3,
      creditsConsumed: 15,
      durationSeconds: 180,
      endReason: "credits",
    });
    expect(callCost(row?.durationSeconds ?? 0, RATE)).toBe(15);
    expect(await ledgerSum(row?.id ?? "")).toBe(-15);
  });

  it("a dropped socket not taken up again closes the record once; POST /end retried changes nothing", async () => {
    const session = await signUpWithCredits(t, 100);
    const client = await connectVoice(origin, session.token);
    await client.next("call_started");
    await clock.advance(75_000); // into the second minute
    expect(await balanceOf(t, session.user.id)).toBe(90);
    client.socket.terminate();
    await client.closed;
    // Nobody reconnects within the grace: the call closes as dropped, at the time it dropped.
    await until(
      () => t.app.voice.live.get(session.user.id)?.detached === true,
      "the server to see the socket go",
    );
    await clock.advance(VOICE_RESUME_GRACE_MS);
    await until(
      async () => (await callRows(session.user.id))[0]?.endedAt !== null,
      "the dropped call's record to close",
    );
    const [closed] = await callRows(session.user.id);
    expect(closed).toMatchObject({ endReason: "dropped", minutesCharged: 2, creditsConsumed: 10 });
    expect(closed?.durationSeconds).toBeGreaterThan(60);
    expect(closed?.durationSeconds).toBeLessThanOrEqual(120);
    expect(callCost(closed?.durationSeconds ?? 0, RATE)).toBe(-(await ledgerSum(closed?.id ?? "")));

    const first = await call(t, "POST", "/api/voice-call/end", {
      token: session.token,
      body: { duration: 76 },
    });
    const again = await call(t, "POST", "/api/voice-call/end", {
      token: session.token,
      body: { duration: 76 },
    });
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(first.json().call).toMatchObject({
      _id: closed?.id,
      creditsConsumed: 10,
      duration: closed?.durationSeconds,
    });
    await clock.advance(120_000); // no meter is left running
    expect(await balanceOf(t, session.user.id)).toBe(90);
    const after = await callRows(session.user.id);
    expect(after).toHaveLength(1);
    expect(after[0]?.endedAt?.getTime()).toBe(closed?.endedAt?.getTime());
  });

  it("POST /end during a live call ends it: the socket hears call_ended; a retry answers the same", async () => {
    const session = await signUpWithCredits(t, 100);
    const client = await connectVoice(origin, session.token);
    await client.next("call_started");
    const first = await call(t, "POST", "/api/voice-call/end", {
      token: session.token,
      body: { duration: 12 },
    });
    expect(first.statusCode).toBe(200);
    expect(await client.next("call_ended")).toMatchObject({ message: VOICE_MESSAGES.callEnded });
    expect(await client.closed).toBe(1000);
    const again = await call(t, "POST", "/api/voice-call/end", {
      token: session.token,
      body: { duration: 12 },
    });
    expect(again.json()).toEqual(first.json());
    expect(first.json().call.creditsConsumed).toBe(RATE);
    expect(await balanceOf(t, session.user.id)).toBe(95);
  });

  it("one live call per fan: sockets opened at once start exactly one call and charge one minute", async () => {
    const session = await signUpWithCredits(t, 100);
    const errorsBefore = loggedErrors.length;
    const clients = await Promise.all(
      Array.from({ length: 12 }, () => connectVoice(origin, session.token)),
    );
    const outcomes = await Promise.all(
      clients.map(async (client) => {
        const code = await Promise.race([client.closed, client.next("call_started").then(() => 0)]);
        return { client, code };
      }),
    );
    const started = outcomes.filter((outcome) => outcome.code === 0);
    const refused = outcomes.filter((outcome) => outcome.code !== 0);
    expect(started).toHaveLength(1);
    expect(refused.map((outcome) => outcome.code)).toEqual(
      Array(11).fill(VOICE_CLOSE_CODES.callInProgress),
    );
    for (const { client } of refused) {
      expect(await client.next("error")).toEqual({
        type: "error",
        message: VOICE_MESSAGES.callInProgress,
      });
    }
    expect(await balanceOf(t, session.user.id)).toBe(100 - RATE);
    const rows = await callRows(session.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ minutesCharged: 1, endedAt: null });
    expect(loggedErrors.slice(errorsBefore)).toEqual([]);

    // A later socket is refused too while the call is live; the live call goes on untouched.
    const later = await connectVoice(origin, session.token);
    expect(await later.next("error")).toMatchObject({ message: VOICE_MESSAGES.callInProgress });
    expect(await later.closed).toBe(VOICE_CLOSE_CODES.callInProgress);
    const live = started[0]?.client;
    live?.socket.close(1000);
    await live?.closed;
    // Once it has ended, the fan can call again at once (the redial waits for the record).
    const again = await connectVoice(origin, session.token);
    await again.next("call_started");
    again.socket.close(1000);
    await again.closed;
    expect(await balanceOf(t, session.user.id)).toBe(100 - 2 * RATE);
  });

  it("calls in which nothing was heard still show in the chat logs and the chat, marked", async () => {
    const admin = await adminSession(t);
    const fan = await signUpWithCredits(t, 100);
    // One call where the only utterance was recognised as nothing (noise), one with no utterance.
    openai.transcription = "";
    for (const utterances of [1, 0]) {
      const client = await connectVoice(origin, fan.token);
      await client.next("call_started");
      for (let i = 0; i < utterances; i++) {
        client.socket.send(UTTERANCE);
        expect(await client.next("transcription")).toMatchObject({ text: "" });
      }
      client.sendJson({ type: "end" });
      await client.next("call_ended");
      await client.closed;
    }
    openai.transcription = DEFAULT_FAKE_TRANSCRIPTION;
    const sentBefore = sentChatCompletions(openai).length;

    const logs = await call(t, "GET", "/api/admin/chat-logs", {
      token: admin.token,
      query: { channel: "call", search: fan.user.email },
    });
    expect(logs.statusCode).toBe(200);
    const [log] = chatLogsResponseSchema.parse(logs.json()).data;
    expect(log).toMatchObject({ calls: 2, messageCount: 2 });
    const messages = await call(t, "GET", `/api/admin/chat-logs/${log?._id}/messages`, {
      token: admin.token,
    });
    const marked = messagesPageResponseSchema.parse(messages.json()).data.messages;
    // Each call opened with the product's AI notice (not counted as a message).
    const notice = aiNoticeText("AI Celebrity Assistant");
    expect(marked.map((message) => message.content)).toEqual([
      notice,
      VOICE_MESSAGES.nothingHeard,
      notice,
      VOICE_MESSAGES.nothingHeard,
    ]);
    expect(new Set(marked.map((message) => message.callId)).size).toBe(2);

    // The marker is not the fan's words: no prompt or memory gets it.
    const chat = await call(t, "POST", "/api/chat/message", {
      token: fan.token,
      body: { message: "Are you there?" },
    });
    expect(chat.statusCode).toBe(200);
    expect(sentChatCompletions(openai).length).toBeGreaterThan(sentBefore);
    expect(JSON.stringify(lastChatMessages())).not.toContain(VOICE_MESSAGES.nothingHeard);
  });

  it("refuses a deactivated user, a missing token, low credits and voice turned off", async () => {
    const deactivated = await signUpWithCredits(t, 100);
    await t.app.database.db
      .update(users)
      .set({ isActive: false })
      .where(eq(users.id, deactivated.user.id));
    const refused = await connectVoice(origin, deactivated.token);
    expect(await refused.next("error")).toEqual({
      type: "error",
      message: AUTH_MESSAGES.accountDeactivated,
    });
    expect(await refused.closed).toBe(VOICE_CLOSE_CODES.unauthorized);

    const anonymous = await connectVoice(origin, undefined);
    await anonymous.next("error");
    expect(await anonymous.closed).toBe(VOICE_CLOSE_CODES.unauthorized);

    const poor = await signUpWithCredits(t, RATE - 1);
    const low = await connectVoice(origin, poor.token);
    expect(await low.next("error")).toEqual({
      type: "error",
      message: VOICE_MESSAGES.insufficientCredits,
    });
    expect(await low.closed).toBe(VOICE_CLOSE_CODES.insufficientCredits);
    expect(await callRows(poor.user.id)).toHaveLength(0);
    const credits = await call(t, "GET", "/api/voice-call/check-credits", { token: poor.token });
    expect(credits.json()).toEqual({
      success: true,
      credits: RATE - 1,
      creditsPerMinute: RATE,
      hasCredits: false,
      voiceEnabled: true,
    });

    const rich = await signUpWithCredits(t, 100);
    await t.app.settings.update({ aiProfile: { enableVoiceConversation: false } });
    try {
      const off = await connectVoice(origin, rich.token);
      expect(await off.next("error")).toEqual({
        type: "error",
        message: VOICE_MESSAGES.voiceDisabled,
      });
      expect(await off.closed).toBe(VOICE_CLOSE_CODES.voiceDisabled);
    } finally {
      await t.app.settings.update({ aiProfile: { enableVoiceConversation: true } });
    }
    expect(await balanceOf(t, rich.user.id)).toBe(100);
  });

  it("REST: process answers with the persona, synthesize answers audio, bad input is 400", async () => {
    const session = await signUpWithCredits(t, 100);
    const processed = await call(t, "POST", "/api/voice-call/process", {
      token: session.token,
      body: { text: "How are you?" },
    });
    expect(processed.statusCode).toBe(200);
    expect(processed.json()).toEqual({ success: true, response: REPLY.join("") });
    const spoken = await call(t, "POST", "/api/voice-call/synthesize", {
      token: session.token,
      body: { text: "Hello there." },
    });
    expect(spoken.statusCode).toBe(200);
    expect(spoken.headers["content-type"]).toBe("audio/mpeg");
    expect(spoken.headers["ai-generated"]).toBe("true");
    expect(spoken.rawPayload.equals(labelledMp3(elevenlabs.audio))).toBe(true);
    const bad = await call(t, "POST", "/api/voice-call/process", {
      token: session.token,
      body: { text: "a\u0000b" },
    });
    expect(bad.statusCode).toBe(400);
    expect((await call(t, "GET", "/api/voice-call/history")).statusCode).toBe(401);
  });
});
