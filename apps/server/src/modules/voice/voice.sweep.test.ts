import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp, testDatabaseKind } from "../../../test/create-test-app.ts";
import { createManualClock, type ManualClock } from "../../../test/manual-clock.ts";
import { voiceCalls } from "../../db/schema/index.ts";
import { ABANDONED_CALLS_JOB } from "./plugin.ts";

// Issue 28 item 3: calls a stopped server left open are closed by a job on the queue, each
// minute of the voice clock, once per minute across instances (docs/decisions/0072).

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps.reverse()) await app.close();
});

/** An open call of `userId` as a server that stopped mid-call leaves it, `minutes` paid. */
async function leftOpen(t: TestApp, userId: string, startedAt: number, minutes: number) {
  const [row] = await t.app.database.db
    .insert(voiceCalls)
    .values({
      userId,
      startedAt: new Date(startedAt),
      creditsPerMinute: 5,
      minutesCharged: minutes,
      creditsConsumed: 5 * minutes,
    })
    .returning();
  if (!row) throw new Error("No call inserted");
  return row.id;
}

const callRow = async (t: TestApp, id: string) =>
  (await t.app.database.db.select().from(voiceCalls).where(eq(voiceCalls.id, id)))[0];

/** The sweep's runs on the queue: one per occurrence, with its state. */
async function sweepRuns(t: TestApp) {
  const result = (await t.app.database.db.execute(sql`
    select state, data->>'at' as at from pgboss.job where name = ${ABANDONED_CALLS_JOB}
    order by data->>'at'`)) as unknown as { rows: { state: string; at: string }[] };
  return result.rows;
}

describe("the abandoned-call sweep is a job each minute of the voice clock", () => {
  it("closes a call left open at its paid time, once; a call still paid for stays open", async () => {
    const clock: ManualClock = createManualClock(Date.UTC(2026, 10, 26, 12, 0, 10));
    const t = await createTestApp({ voiceClock: clock, billingSweeps: false });
    apps.push(t);
    const [gone, talking] = [await signUp(t), await signUp(t)];
    // Paid for two minutes from 11:50: abandoned. Paid until 12:01:20: a live call elsewhere.
    const abandoned = await leftOpen(t, gone.user.id, Date.UTC(2026, 10, 26, 11, 50), 2);
    const live = await leftOpen(t, talking.user.id, Date.UTC(2026, 10, 26, 11, 59, 20), 2);

    await clock.advance(50_000); // 12:01:00, the next minute
    expect(await callRow(t, abandoned)).toMatchObject({
      endedAt: new Date(Date.UTC(2026, 10, 26, 11, 52)),
      durationSeconds: 120,
      endReason: "server",
    });
    expect((await callRow(t, live))?.endedAt).toBeNull();
    expect(await sweepRuns(t)).toEqual([
      { state: "completed", at: new Date(Date.UTC(2026, 10, 26, 12, 1)).toISOString() },
    ]);

    // A pass again (a retry, another instance) changes nothing that is closed.
    const closedAt = (await callRow(t, abandoned))?.endedAt;
    expect(await t.app.voice.closeAbandoned()).toBe(0);
    expect((await callRow(t, abandoned))?.endedAt).toEqual(closedAt);

    // At 12:02 the other call's paid time (12:01:20) is 40 s over, past the 30 s grace: its
    // server is gone too.
    await clock.advance(60_000);
    expect(await callRow(t, live)).toMatchObject({ durationSeconds: 120, endReason: "server" });
    expect((await sweepRuns(t)).map((run) => run.state)).toEqual(["completed", "completed"]);
  });
});

describe.skipIf(testDatabaseKind() !== "postgres")("two instances on one PostgreSQL", () => {
  it("one sweep per minute across both; passes at once close each call once", async () => {
    const start = Date.UTC(2026, 10, 26, 13, 0, 10);
    const clockA = createManualClock(start);
    const clockB = createManualClock(start);
    const a = await createTestApp({ voiceClock: clockA, billingSweeps: false });
    apps.push(a);
    const b = await createTestApp({ sameDatabaseAs: a, voiceClock: clockB, billingSweeps: false });
    apps.push(b);
    const fans = await Promise.all([signUp(a), signUp(a), signUp(a)]);
    const calls = await Promise.all(
      fans.map((fan) => leftOpen(a, fan.user.id, Date.UTC(2026, 10, 26, 12, 40), 1)),
    );

    await Promise.all([clockA.advance(50_000), clockB.advance(50_000)]);
    expect(await sweepRuns(a)).toEqual([
      { state: "completed", at: new Date(Date.UTC(2026, 10, 26, 13, 1)).toISOString() },
    ]);
    for (const id of calls) expect((await callRow(a, id))?.endReason).toBe("server");

    // Two passes racing (compare-and-set on "still open"): every call is closed by one of them.
    const more = await Promise.all([signUp(a), signUp(a)]);
    for (const fan of more) await leftOpen(a, fan.user.id, Date.UTC(2026, 10, 26, 12, 40), 1);
    const closed = await Promise.all([a.app.voice.closeAbandoned(), b.app.voice.closeAbandoned()]);
    expect(closed[0] + closed[1]).toBe(2);
  });
});
