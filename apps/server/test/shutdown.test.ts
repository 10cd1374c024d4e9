import type { AddressInfo } from "node:net";
import { VOICE_CLOSE_CODES, VOICE_MESSAGES } from "@twinline/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { voiceCalls } from "../src/db/schema/index.ts";
import { signUp } from "./accounts.ts";
import { createTestApp, type TestApp } from "./create-test-app.ts";
import { connectVoice } from "./voice-client.ts";

// Issue 17 item 9: once an instance begins to shut down it takes no new call; its live calls
// hear the restart message and their records are closed before the database closes. (The
// SIGTERM of a real process: e2e/shutdown.test.ts.)
describe("shutting down", () => {
  let t: TestApp;
  let origin: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  it("ends the live calls with the restart message, then refuses new ones", async () => {
    const caller = await signUp(t);
    const late = await signUp(t);
    const live = await connectVoice(origin, caller.token);
    await live.next("call_started");

    await t.app.voice.shutdown();
    expect(await live.next("call_ended")).toEqual({
      type: "call_ended",
      message: VOICE_MESSAGES.serverClosing,
      reason: "server",
    });
    expect(await live.closed).toBe(VOICE_CLOSE_CODES.serverRestart);
    const [row] = await t.app.database.db
      .select()
      .from(voiceCalls)
      .where(eq(voiceCalls.userId, caller.user.id));
    expect(row).toMatchObject({ endReason: "server", minutesCharged: 1 });

    const refused = await connectVoice(origin, late.token);
    expect(await refused.next("error")).toEqual({
      type: "error",
      message: VOICE_MESSAGES.serverClosing,
    });
    expect(await refused.closed).toBe(VOICE_CLOSE_CODES.serverRestart);
    const rows = await t.app.database.db
      .select()
      .from(voiceCalls)
      .where(eq(voiceCalls.userId, late.user.id));
    expect(rows).toEqual([]);
  });
});
