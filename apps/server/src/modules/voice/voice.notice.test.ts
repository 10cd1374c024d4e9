import {
  AI_NOTICE_REPEAT_MS,
  aiNoticeText,
  BREAK_REMINDER_TEXT,
  callDetailResponseSchema,
} from "@twinline/contracts";
import { type FakeElevenLabs, type FakeOpenAi, makeWavTone } from "@twinline/fakes";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call } from "../../../test/accounts.ts";
import type { TestApp } from "../../../test/create-test-app.ts";
import { balanceOf, signUpWithCredits } from "../../../test/credits.ts";
import { sentChatCompletions } from "../../../test/fake-providers.ts";
import { createManualClock, type ManualClock } from "../../../test/manual-clock.ts";
import { until } from "../../../test/until.ts";
import { startVoiceTestApp, type VoiceTestApp } from "../../../test/voice-app.ts";
import { connectVoice } from "../../../test/voice-client.ts";
import { voiceDailyUsage } from "../../db/schema/index.ts";
import { labelAiGenerated } from "../../providers/tts/ai-label.ts";

const PERSONA = "AI Celebrity Assistant";
const NOTICE = aiNoticeText(PERSONA);

let voice: VoiceTestApp;
let t: TestApp;
let origin: string;
let openai: FakeOpenAi;
let elevenlabs: FakeElevenLabs;
/** The sittings' clock, moved over hours; the call's meter stays on its own clock (one minute). */
let noticeClock: ManualClock;

beforeAll(async () => {
  noticeClock = createManualClock(Date.UTC(2026, 4, 1, 20));
  voice = await startVoiceTestApp({ voiceClock: createManualClock(), noticeClock });
  ({ t, origin, openai, elevenlabs } = voice);
});
afterAll(() => voice?.close());

async function transcriptOf(token: string, callId: string) {
  const response = await call(t, "GET", `/api/voice-call/calls/${callId}`, { token });
  expect(response.statusCode, response.body).toBe(200);
  return callDetailResponseSchema.parse(response.json()).transcript;
}

describe("the AI notice on a call", () => {
  it("is said at the start in the persona's voice with a caption, stored, free, and repeated after 3 hours with a break reminder", async () => {
    const fan = await signUpWithCredits(t, 100);
    const client = await connectVoice(origin, fan.token);
    const { callId } = await client.next("call_started");

    // The caption, then its speech: one whole MP3 in the persona's voice, marked AI-generated.
    const notice = await client.next("notice");
    expect(notice).toMatchObject({ kind: "ai-notice", text: NOTICE });
    await until(
      () =>
        client.noticeTraffic.some(
          (entry) =>
            entry.kind === "json" &&
            entry.message.type === "audio_complete" &&
            entry.message.replyId === notice.replyId,
        ),
      "the notice's speech",
    );
    const traffic = client.noticeTraffic.map((entry) =>
      entry.kind === "json" ? entry.message.type : "audio",
    );
    expect(traffic).toEqual(["notice", "audio_start", "audio", "audio_complete"]);
    const audio = client.noticeTraffic.find((entry) => entry.kind === "audio");
    expect(
      audio?.kind === "audio" &&
        audio.bytes.equals(
          labelAiGenerated({ format: "audio/mpeg", audio: elevenlabs.audio }, "Twinline").audio,
        ),
    ).toBe(true);
    expect(elevenlabs.speech.some((request) => request.text === NOTICE)).toBe(true);

    // Stored as the call's first turn, the product's, before anything the fan says.
    expect((await transcriptOf(fan.token, callId))[0]).toMatchObject({
      sender: "product",
      productKind: "ai-notice",
      content: NOTICE,
    });

    // The fan speaks: the reply's prompt never holds the notice.
    client.socket.send(makeWavTone(1));
    await client.next("audio_complete");
    const sent = sentChatCompletions(openai).flatMap((request) => request.messages);
    expect(sent.some((message) => message.content.includes(NOTICE))).toBe(false);
    // The notice's speech is not counted against the fan's daily voice caps.
    const [usage] = await t.app.database.db
      .select({ characters: voiceDailyUsage.synthesizedCharacters })
      .from(voiceDailyUsage)
      .where(eq(voiceDailyUsage.userId, fan.user.id));
    const spokenByReply = elevenlabs.speech
      .filter((request) => request.text !== NOTICE)
      .reduce((sum, request) => sum + request.text.length, 0);
    expect(usage?.characters).toBe(spokenByReply);

    // Three hours of the call later (its heartbeat keeps the sitting going): the notice again,
    // with a gentle reminder to take a break; one minute earlier, nothing.
    await noticeClock.advance(AI_NOTICE_REPEAT_MS - 60_000);
    expect(client.notices()).toHaveLength(1);
    await noticeClock.advance(60_000);
    expect(await client.next("notice")).toMatchObject({ kind: "ai-notice", text: NOTICE });
    expect(await client.next("notice")).toMatchObject({
      kind: "break-reminder",
      text: BREAK_REMINDER_TEXT,
    });
    const products = (await transcriptOf(fan.token, callId)).filter(
      (turn) => turn.sender === "product",
    );
    expect(products.map((turn) => turn.productKind)).toEqual([
      "ai-notice",
      "ai-notice",
      "break-reminder",
    ]);

    client.sendJson({ type: "end" });
    await client.closed;
    // Only the call's minute was charged (the meter's clock did not move): the notices are free.
    expect(await balanceOf(t, fan.user.id)).toBe(95);

    // The admin's CSV export names the notices by their kind in the call's transcript.
    const admin = await adminSession(t);
    const csv = await call(t, "GET", "/api/admin/chat-logs/export", {
      token: admin.token,
      query: { search: fan.user.email },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(`[AI notice]: ${NOTICE}`);
    expect(csv.body).toContain(`[Break reminder]: ${BREAK_REMINDER_TEXT}`);
  });
});
