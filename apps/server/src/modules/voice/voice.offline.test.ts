import type { AddressInfo } from "node:net";
import { VOICE_MESSAGES } from "@twinline/contracts";
import { makeWavTone } from "@twinline/fakes";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { connectVoice } from "../../../test/voice-client.ts";
import { users, voiceCalls } from "../../db/schema/index.ts";
import { parseWav } from "../../providers/stt/wav.ts";
import { aiGeneratedComment } from "../../providers/tts/ai-label.ts";
import { offlineSpokenReply } from "./engine.ts";

// No provider key at all and no offline recogniser: the call still works, says plainly that
// speech is not transcribed, and speaks with the built-in WASM voice. (With pocketsphinx
// installed, voice.pocketsphinx.test.ts.)
describe("voice call offline", () => {
  let t: TestApp;
  let origin: string;

  beforeAll(async () => {
    // As on a machine without Debian's pocketsphinx.
    t = await createTestApp({ env: { POCKETSPHINX_BIN: "/nonexistent/pocketsphinx_continuous" } });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  it("says speech is not transcribed, answers with a fixed line, spoken as real WAV audio", async () => {
    const session = await signUp(t);
    const client = await connectVoice(origin, session.token);
    expect(await client.next("call_started")).toMatchObject({ stt: "offline", tts: "offline" });
    client.socket.send(makeWavTone(1));
    expect(await client.next("transcription")).toEqual({
      type: "transcription",
      text: VOICE_MESSAGES.offlineTranscription,
      offline: true,
    });
    expect((await client.next("response")).text).toBe(offlineSpokenReply("AI Celebrity Assistant"));
    const start = await client.next("audio_start", 30_000);
    expect(start.format).toBe("audio/wav");
    await client.next("audio_complete", 30_000);
    const audio = client.audio();
    expect(audio.length).toBeGreaterThanOrEqual(2);
    for (const frame of audio) {
      expect(frame.subarray(0, 4).toString("latin1")).toBe("RIFF");
      expect(frame.subarray(8, 12).toString("latin1")).toBe("WAVE");
      // Every spoken sentence says in the file that it is synthetic, and whose.
      expect(frame.toString("utf8")).toContain(aiGeneratedComment("Twinline"));
      // Speech, not silence: some samples well away from zero.
      const data = parseWav(frame)?.data ?? Buffer.alloc(0);
      const samples = new Int16Array(data.buffer, data.byteOffset, data.length >> 1);
      expect(samples.some((sample) => Math.abs(sample) > 2000)).toBe(true);
    }
    client.socket.close(1000);
    await client.closed;
  });

  it("speaks a sentence that starts with a dash (eSpeak reads it as text, not options)", async () => {
    const session = await signUp(t);
    for (const text of ["-v is how the list begins", "--help is not a request"]) {
      const response = await call(t, "POST", "/api/voice-call/synthesize", {
        token: session.token,
        body: { text },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["content-type"]).toBe("audio/wav");
      expect(response.headers["ai-generated"]).toBe("true");
      expect(response.rawPayload.subarray(0, 4).toString("latin1")).toBe("RIFF");
      expect(response.rawPayload.toString("utf8")).toContain("AI-generated voice");
    }
  });

  it("the admin's settings say speech to text is offline", async () => {
    const admin = await adminSession(t);
    const response = await call(t, "GET", "/api/admin/settings", { token: admin.token });
    expect(response.json().data.providers).toMatchObject({ stt: "offline", llm: "offline" });
  });

  it("on boot, a call a stopped server left open is closed at the end of its last paid minute", async () => {
    const session = await signUp(t);
    const startedAt = new Date(Date.now() - 10 * 60_000);
    const [row] = await t.app.database.db
      .insert(voiceCalls)
      .values({
        userId: session.user.id,
        startedAt,
        creditsPerMinute: 5,
        minutesCharged: 2,
        creditsConsumed: 10,
      })
      .returning();
    await t.close();
    t = await createTestApp({ sameDatabaseAs: t });
    const [closed] = await t.app.database.db
      .select()
      .from(voiceCalls)
      .where(eq(voiceCalls.id, row?.id ?? ""));
    expect(closed).toMatchObject({
      durationSeconds: 120,
      creditsConsumed: 10,
      endReason: "server",
    });
    expect(closed?.endedAt?.getTime()).toBe(startedAt.getTime() + 120_000);
    // The user's credits are untouched by the closing (the minutes were paid as they began).
    const [user] = await t.app.database.db
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, session.user.id));
    expect(user?.credits).toBe(100);
  });
});
