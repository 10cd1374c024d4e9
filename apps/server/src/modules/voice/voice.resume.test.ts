import { VOICE_CLOSE_CODES, VOICE_MESSAGES } from "@twinline/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../../test/create-test-app.ts";
import { balanceOf, signUpWithCredits } from "../../../test/credits.ts";
import { createManualClock, type ManualClock } from "../../../test/manual-clock.ts";
import { until } from "../../../test/until.ts";
import { startVoiceTestApp, type VoiceTestApp } from "../../../test/voice-app.ts";
import { connectVoice } from "../../../test/voice-client.ts";
import { voiceCalls } from "../../db/schema/index.ts";

// Issue 24: a dropped connection is taken up again by the client, naming the call it resumes
// (`resume` in the socket's query): the same call and minute go on, nothing new is charged.

let voice: VoiceTestApp;
let t: TestApp;
let origin: string;
let clock: ManualClock;

beforeAll(async () => {
  clock = createManualClock();
  voice = await startVoiceTestApp({ voiceClock: clock });
  ({ t, origin } = voice);
});

afterAll(() => voice?.close());

const callRows = (userId: string) =>
  t.app.database.db.select().from(voiceCalls).where(eq(voiceCalls.userId, userId));

describe("resuming a dropped call", () => {
  it("a dropped socket (1006) resumed within the grace: the same call, no second minute charged, the meter goes on", async () => {
    const session = await signUpWithCredits(t, 100);
    const first = await connectVoice(origin, session.token);
    const started = await first.next("call_started");
    expect(await balanceOf(t, session.user.id)).toBe(95);
    first.socket.terminate();
    await until(
      () => t.app.voice.live.get(session.user.id)?.detached === true,
      "the server to see the socket drop",
    );
    await clock.advance(5_000);

    const again = await connectVoice(origin, session.token, { resume: started.callId });
    expect(await again.next("call_started")).toMatchObject({
      callId: started.callId,
      creditsRemaining: 95,
      resumed: true,
    });
    expect(await balanceOf(t, session.user.id)).toBe(95);
    expect(await callRows(session.user.id)).toHaveLength(1);
    // The grace is over and the call still runs; its second minute is charged when it starts.
    await clock.advance(20_000);
    expect((await callRows(session.user.id))[0]?.endedAt).toBeNull();
    await clock.advance(40_000);
    await until(async () => (await balanceOf(t, session.user.id)) === 90, "the second minute");
    again.sendJson({ type: "end" });
    await again.closed;
    const [row] = await callRows(session.user.id);
    expect(row).toMatchObject({ id: started.callId, minutesCharged: 2, creditsConsumed: 10 });
  });

  it("a reconnection before the server saw the old socket go takes the call over; the old socket's close does not hang up", async () => {
    const session = await signUpWithCredits(t, 100);
    const first = await connectVoice(origin, session.token);
    const started = await first.next("call_started");
    const again = await connectVoice(origin, session.token, { resume: started.callId });
    expect(await again.next("call_started")).toMatchObject({
      callId: started.callId,
      resumed: true,
    });
    expect(await first.closed).toBe(VOICE_CLOSE_CODES.resumedElsewhere);
    const live = t.app.voice.live.get(session.user.id);
    expect(live?.row.id).toBe(started.callId);
    expect(live?.ended).toBe(false);
    expect(live?.detached).toBe(false);
    expect(await balanceOf(t, session.user.id)).toBe(95);
    expect(await callRows(session.user.id)).toHaveLength(1);
    again.sendJson({ type: "end" });
    await again.closed;
  });

  it("a call that is gone is not resumed and no new one starts: 4404, nothing charged", async () => {
    const session = await signUpWithCredits(t, 100);
    const first = await connectVoice(origin, session.token);
    const started = await first.next("call_started");
    first.sendJson({ type: "end" });
    await first.closed;
    const again = await connectVoice(origin, session.token, { resume: started.callId });
    expect(await again.next("error")).toEqual({
      type: "error",
      message: VOICE_MESSAGES.connectionLost,
    });
    expect(await again.closed).toBe(VOICE_CLOSE_CODES.notResumable);
    expect(await balanceOf(t, session.user.id)).toBe(95);
    expect(await callRows(session.user.id)).toHaveLength(1);
  });
});
