import { fileURLToPath } from "node:url";
import { userTransactionsResponseSchema } from "@twinline/contracts";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPlan, sandboxBuy } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { createManualClock } from "../../../../test/manual-clock.ts";
import { runUntilKilled } from "../../../../test/run-until-killed.ts";

const CHILD = fileURLToPath(new URL("../../../../test/kill-mid-renewal.child.ts", import.meta.url));
const DAY = 24 * 60 * 60_000;
/** Every new account starts with the settings' default credits. */
const START = 100;

const subscriptionPayments = async (t: TestApp, token: string) =>
  userTransactionsResponseSchema.parse(
    (
      await call(t, "GET", "/api/payments/subscription-history", {
        token,
        query: { limit: "50" },
      })
    ).json(),
  ).transactions;

/** The job's times are the database's, which a test cannot move: it moves the job's instead. */
async function letTimePassFor(t: TestApp, job: string) {
  await t.app.database.db.execute(
    sql`UPDATE pgboss.job SET started_on = started_on - interval '1 day'
        WHERE name = ${job} AND state = 'active'`,
  );
  await t.app.jobs.maintain();
  await t.app.database.db.execute(
    sql`UPDATE pgboss.job SET start_after = now() - interval '1 second' WHERE name = ${job} AND state = 'retry'`,
  );
}

describe("a renewal job whose server is killed half-way (issue 28)", () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  // The renewal delivers two events (the paid invoice, the subscription's new period): killed in
  // the first's transaction nothing is recorded; in the second's, the first is.
  it.each([1, 2])(
    "is finished by another instance exactly once: one charge, one grant (killed in event %i)",
    async (killAtEvent) => {
      const start = Date.now();
      const first = await createTestApp({ billingClock: createManualClock(start) });
      const admin = (await adminSession(first)).token;
      const plan = await createPlan(first, admin, { name: "Crash Fan", price: 10, credits: 50 });
      const user = await signUp(first);
      const { paid } = await sandboxBuy(first, user.token, { planId: plan._id });
      expect(paid.statusCode, paid.body).toBe(200);
      expect(await balanceOf(first, user.token)).toBe(START + 50);
      await first.close();

      // A month and a bit later the renewal job runs, and its process dies recording the payment.
      const renewalDay = start + 32 * DAY;
      expect(
        await runUntilKilled(CHILD, {
          DATA_DIR: first.dataDir,
          DATABASE_URL: first.databaseUrl ?? "",
          NOW: String(renewalDay),
          KILL_AT_EVENT: String(killAtEvent),
        }),
      ).toBe("SIGKILL");

      const clock = createManualClock(renewalDay + 5 * 60_000);
      const t = await createTestApp({ sameDatabaseAs: first, billingClock: clock });
      apps.push(t);
      // The provider charged the renewal; the job is still claimed.
      const [abandoned, ...others] = (
        await t.app.jobs.board.list({ state: "running", page: 1, limit: 20 })
      ).data;
      expect(others).toEqual([]);
      expect(abandoned).toMatchObject({ queue: "billing.renewals", state: "active" });

      // Its claim expires; the retry runs on this instance and records the renewal.
      await letTimePassFor(t, "billing.renewals");
      expect(await t.app.jobs.runDue("billing.renewals")).toBe(1);
      expect(await t.app.jobs.board.get(abandoned?._id ?? "")).toMatchObject({
        state: "completed",
        retryCount: 1,
      });
      const renewed = await subscriptionPayments(t, user.token);
      expect(renewed).toHaveLength(2);
      expect(renewed.map((row) => row.amount)).toEqual([10, 10]);
      const balance = await balanceOf(t, user.token);
      expect(balance).toBe(START + 50 + 50);

      // The next occurrences, here and run twice at once, find nothing more to do.
      await clock.advance(10 * 60_000);
      await Promise.all([t.app.billing.renewals.sweep(), t.app.billing.renewals.sweep()]);
      expect(await subscriptionPayments(t, user.token)).toHaveLength(2);
      expect(await balanceOf(t, user.token)).toBe(balance);
      // A child server boots and dies in this test: more than the default time on a busy machine.
    },
    180_000,
  );
});
