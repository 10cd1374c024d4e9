import type { AddressInfo } from "node:net";
import { VOICE_CLOSE_CODES, VOICE_MESSAGES, VOICE_RESUME_GRACE_MS } from "@twinline/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, voiceCalls } from "../src/db/schema/index.ts";
import { adminSession, call, PASSWORD, signUp } from "./accounts.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";
import { balanceOf, signUpWithCredits } from "./credits.ts";
import { testDatabaseKind } from "./database-kind.ts";
import { createManualClock, type ManualClock } from "./manual-clock.ts";
import { until } from "./until.ts";
import { connectVoice, type VoiceClient } from "./voice-client.ts";

// Issue 17 item 6: a live call ends with the session that opened it (logout, password change
// or reset, deactivation: call_ended, then close 4401), and a dropped call taken up again within
// the grace goes on as the same call and minute. The cross-instance parts run on PostgreSQL.

interface Instance {
  t: TestApp;
  origin: string;
  clock: ManualClock;
}

async function startInstance(sameDatabaseAs?: TestApp): Promise<Instance> {
  const clock = createManualClock();
  const t = await createTestApp({
    voiceClock: clock,
    ...(sameDatabaseAs ? { sameDatabaseAs } : {}),
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  return { t, clock, origin: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
}

async function callRows(t: TestApp, userId: string) {
  return t.app.database.db.select().from(voiceCalls).where(eq(voiceCalls.userId, userId));
}

/** The call ended because its session did: call_ended, then 4401; its record says why. */
async function expectEndedBySession(t: TestApp, client: VoiceClient, userId: string) {
  expect(await client.next("call_ended")).toEqual({
    type: "call_ended",
    message: VOICE_MESSAGES.unauthorized,
    reason: "session",
  });
  expect(await client.closed).toBe(VOICE_CLOSE_CODES.sessionEnded);
  const [row] = await callRows(t, userId);
  expect(row).toMatchObject({ endReason: "session", minutesCharged: 1 });
  expect(row?.endedAt).not.toBeNull();
}

async function resetLink(t: TestApp, email: string): Promise<string> {
  const forgot = await call(t, "POST", "/api/auth/forgotpassword", { body: { email } });
  expect(forgot.statusCode).toBe(200);
  let token: string | undefined;
  await until(async () => {
    const [mail] = await t.app.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, email));
    token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
    return token !== undefined;
  }, "the reset mail");
  return token as string;
}

describe("a live call ends with its session (one instance)", () => {
  let a: Instance;
  beforeAll(async () => {
    a = await startInstance();
  });
  afterAll(() => a?.t.close());

  it("logout ends the call opened with that token", async () => {
    const session = await signUp(a.t);
    const client = await connectVoice(a.origin, session.token);
    await client.next("call_started");
    const out = await call(a.t, "POST", "/api/auth/logout", { token: session.token });
    expect(out.statusCode).toBe(200);
    await expectEndedBySession(a.t, client, session.user.id);
    // No minute is charged after the end.
    await a.clock.advance(180_000);
    expect(await balanceOf(a.t, session.user.id)).toBe(95);
  });

  it("a password change ends the call", async () => {
    const session = await signUp(a.t);
    const client = await connectVoice(a.origin, session.token);
    await client.next("call_started");
    const changed = await call(a.t, "PUT", "/api/users/password", {
      token: session.token,
      body: { currentPassword: PASSWORD, newPassword: "another long password" },
    });
    expect(changed.statusCode).toBe(200);
    await expectEndedBySession(a.t, client, session.user.id);
  });

  it("a password reset ends the call", async () => {
    const session = await signUp(a.t);
    const client = await connectVoice(a.origin, session.token);
    await client.next("call_started");
    const token = await resetLink(a.t, session.user.email);
    const reset = await call(a.t, "PUT", `/api/auth/resetpassword/${token}`, {
      body: { password: "a brand new password" },
    });
    expect(reset.statusCode).toBe(200);
    await expectEndedBySession(a.t, client, session.user.id);
  });

  it("deactivation by the admin ends the call", async () => {
    const session = await signUp(a.t);
    const admin = await adminSession(a.t);
    const client = await connectVoice(a.origin, session.token);
    await client.next("call_started");
    const off = await call(a.t, "PUT", `/api/admin/users/${session.user.id}/status`, {
      token: admin.token,
      body: { action: "deactivate" },
    });
    expect(off.statusCode).toBe(200);
    await expectEndedBySession(a.t, client, session.user.id);
  });

  it("a logout of another token of the same user leaves the call alone", async () => {
    const session = await signUp(a.t);
    const login = await call(a.t, "POST", "/api/auth/login", {
      body: { email: session.user.email, password: PASSWORD },
    });
    const client = await connectVoice(a.origin, session.token);
    await client.next("call_started");
    await call(a.t, "POST", "/api/auth/logout", { token: login.json().token });
    await a.clock.advance(61_000);
    expect(await balanceOf(a.t, session.user.id)).toBe(90);
    expect(client.received.some((m) => m.kind === "json" && m.message.type === "call_ended")).toBe(
      false,
    );
    client.socket.close(1000);
    await client.closed;
  });

  it("a reconnection within the grace resumes the same call and minute", async () => {
    const session = await signUp(a.t);
    const first = await connectVoice(a.origin, session.token);
    const started = await first.next("call_started");
    await a.clock.advance(20_000);
    first.socket.terminate();
    await until(
      () => a.t.app.voice.live.get(session.user.id)?.detached === true,
      "the server to see the socket go",
    );
    await a.clock.advance(VOICE_RESUME_GRACE_MS - 1_000);

    const second = await connectVoice(a.origin, session.token);
    expect(await second.next("call_started")).toMatchObject({
      callId: started.callId,
      creditsRemaining: 95,
      resumed: true,
    });
    expect(await balanceOf(a.t, session.user.id)).toBe(95);
    // The call goes on: its second minute is charged as it starts, once.
    await a.clock.advance(30_000);
    expect(await balanceOf(a.t, session.user.id)).toBe(90);
    second.sendJson({ type: "end" });
    expect(await second.next("call_ended")).toMatchObject({ reason: "hangup" });
    const rows = await callRows(a.t, session.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ endReason: "hangup", minutesCharged: 2, creditsConsumed: 10 });
  });

  it("after the grace, a reconnection is a new call; the dropped one ended when it dropped", async () => {
    const session = await signUp(a.t);
    const first = await connectVoice(a.origin, session.token);
    const started = await first.next("call_started");
    await a.clock.advance(10_000);
    first.socket.terminate();
    await until(
      () => a.t.app.voice.live.get(session.user.id)?.detached === true,
      "the server to see the socket go",
    );
    await a.clock.advance(VOICE_RESUME_GRACE_MS);
    await until(
      async () => (await callRows(a.t, session.user.id))[0]?.endedAt !== null,
      "the call's record to close",
    );
    const [dropped] = await callRows(a.t, session.user.id);
    expect(dropped).toMatchObject({ endReason: "dropped", durationSeconds: 10 });

    const second = await connectVoice(a.origin, session.token);
    const next = await second.next("call_started");
    expect(next.callId).not.toBe(started.callId);
    expect(next.resumed).toBeUndefined();
    expect(await balanceOf(a.t, session.user.id)).toBe(90);
    second.socket.close(1000);
    await second.closed;
  });

  it("a logout while the call waits for a reconnection ends it", async () => {
    const session = await signUp(a.t);
    const first = await connectVoice(a.origin, session.token);
    await first.next("call_started");
    first.socket.terminate();
    await until(
      () => a.t.app.voice.live.get(session.user.id)?.detached === true,
      "the server to see the socket go",
    );
    await call(a.t, "POST", "/api/auth/logout", { token: session.token });
    await until(
      async () => (await callRows(a.t, session.user.id))[0]?.endedAt !== null,
      "the call's record to close",
    );
    expect((await callRows(a.t, session.user.id))[0]).toMatchObject({ endReason: "session" });
  });
});

describe.runIf(testDatabaseKind() === "postgres")("two instances on one PostgreSQL", () => {
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    a = await startInstance();
    b = await startInstance(a.t);
  });
  afterAll(async () => {
    await b?.t.close();
    await a?.t.close();
  });

  it("a logout through the other instance ends the call at once", async () => {
    const session = await signUp(a.t);
    const client = await connectVoice(a.origin, session.token);
    await client.next("call_started");
    expect((await call(b.t, "POST", "/api/auth/logout", { token: session.token })).statusCode).toBe(
      200,
    );
    await expectEndedBySession(a.t, client, session.user.id);
  });

  it("a deactivation through the other instance ends the call at once", async () => {
    const session = await signUp(a.t);
    const admin = await adminSession(b.t);
    const client = await connectVoice(a.origin, session.token);
    await client.next("call_started");
    const off = await call(b.t, "PUT", `/api/admin/users/${session.user.id}/status`, {
      token: admin.token,
      body: { action: "deactivate" },
    });
    expect(off.statusCode).toBe(200);
    await expectEndedBySession(a.t, client, session.user.id);
  });

  it("a second call on the other instance is refused while the first is live; nothing is charged", async () => {
    const session = await signUpWithCredits(a.t, 100);
    const first = await connectVoice(a.origin, session.token);
    await first.next("call_started");
    const second = await connectVoice(b.origin, session.token);
    expect(await second.next("error")).toEqual({
      type: "error",
      message: VOICE_MESSAGES.callInProgress,
    });
    expect(await second.closed).toBe(VOICE_CLOSE_CODES.callInProgress);
    expect(await balanceOf(a.t, session.user.id)).toBe(95);
    expect(a.t.app.voice.live.has(session.user.id)).toBe(true);
    first.socket.close(1000);
    await first.closed;
  });

  it("POST /end on the other instance ends the call", async () => {
    const session = await signUp(a.t);
    const client = await connectVoice(a.origin, session.token);
    await client.next("call_started");
    const ended = await call(b.t, "POST", "/api/voice-call/end", {
      token: session.token,
      body: { duration: 5 },
    });
    expect(ended.statusCode).toBe(200);
    expect(await client.next("call_ended")).toMatchObject({ message: VOICE_MESSAGES.callEnded });
    expect(await client.closed).toBe(VOICE_CLOSE_CODES.normal);
  });
});
