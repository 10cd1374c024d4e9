import {
  BILLING_MESSAGES,
  mySubscriptionResponseSchema,
  planChangeResultSchema,
  SANDBOX_CARDS,
  userSubscriptionHistoryResponseSchema,
  userTransactionsResponseSchema,
} from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPlan, sandboxBuy } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { createManualClock } from "../../../../test/manual-clock.ts";

const DAY = 86_400_000;
/** Every new account starts with the settings' default credits. */
const START = 100;

/** Plan changes and renewals through the sandbox, on a clock the test moves (issue 16). */
describe("plan changes and renewals in the sandbox", () => {
  // From now on: checkout sessions expire by the wall clock, so the clock only moves ahead of it.
  const clock = createManualClock();
  let t: TestApp;
  let admin: string;
  let fan: Awaited<ReturnType<typeof createPlan>>;
  let superfan: Awaited<ReturnType<typeof createPlan>>;

  beforeAll(async () => {
    t = await createTestApp({
      billingClock: clock,
      // The test moves the clock over weeks and runs the sweeps itself.
      billingSweeps: false,
      env: { PUBLIC_URL: "https://twinline.example" },
    });
    admin = (await adminSession(t)).token;
    fan = await createPlan(t, admin, { name: "Fan", price: 9.99, credits: 50 });
    superfan = await createPlan(t, admin, { name: "Superfan", price: 19.99, credits: 120 });
  });
  afterAll(async () => {
    await t?.close();
  });

  const mine = async (token: string) =>
    mySubscriptionResponseSchema.parse(
      (await call(t, "GET", "/api/subscriptions/my-subscription", { token })).json(),
    ).data;
  const payments = async (token: string) =>
    userTransactionsResponseSchema.parse(
      (
        await call(t, "GET", "/api/payments/subscription-history", {
          token,
          query: { limit: "50" },
        })
      ).json(),
    ).transactions;
  const history = async (token: string) =>
    userSubscriptionHistoryResponseSchema.parse(
      (
        await call(t, "GET", "/api/subscriptions/history", { token, query: { limit: "50" } })
      ).json(),
    ).data;
  const changeTo = (token: string, planId: string) =>
    call(t, "POST", "/api/subscriptions/upgrade", { token, body: { planId } });
  /** The clock reaches the subscription's period end (plus `extra`) and the sweep runs. */
  const reachPeriodEnd = async (token: string, extra = 1000) => {
    const end = Date.parse((await mine(token)).endDate ?? "");
    await clock.advance(Math.max(0, end - clock.now()) + extra);
    return t.app.billing.renewals.sweep();
  };

  it("a downgrade credits the unused part to the next invoice, which the renewal uses", async () => {
    const user = await signUp(t);
    const { paid } = await sandboxBuy(t, user.token, { planId: superfan._id });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await balanceOf(t, user.token)).toBe(START + 120);
    const start = await mine(user.token);
    const periodStart = Date.parse(start.startDate ?? "");
    const periodEnd = Date.parse(start.endDate ?? "");
    await clock.advance(12 * DAY);

    const changed = await changeTo(user.token, fan._id);
    expect(changed.statusCode, changed.body).toBe(200);
    const result = planChangeResultSchema.parse(changed.json()).subscription;
    const left = (periodEnd - clock.now()) / (periodEnd - periodStart);
    const creditMinor = Math.round(999 * left) - Math.round(1999 * left);
    expect(creditMinor).toBeLessThan(0);
    expect(result).toMatchObject({
      change: "downgrade",
      status: "active",
      plan: { _id: fan._id, name: "Fan" },
      proratedAmount: creditMinor / 100,
    });
    // The credit is its own row; no credits are taken back.
    const rows = await payments(user.token);
    expect(rows.find((row) => row.status === "credited")).toMatchObject({
      amount: creditMinor / 100,
      planName: "Fan (downgrade: credited to your next invoice)",
      credits: 0,
    });
    expect(await balanceOf(t, user.token)).toBe(START + 120);

    // The renewal charges the Fan price less the credit, and brings the Fan's credits.
    const swept = await reachPeriodEnd(user.token);
    expect(swept.renewed).toBeGreaterThanOrEqual(1);
    const renewal = (await payments(user.token)).find(
      (row) => row.status === "success" && row.planName === "Fan",
    );
    expect(renewal?.amount).toBeCloseTo((999 + creditMinor) / 100, 2);
    expect(await balanceOf(t, user.token)).toBe(START + 170);
    expect((await history(user.token)).map((event) => event.eventType)).toContain("renewed");
    const after = await mine(user.token);
    expect(Date.parse(after.startDate ?? "")).toBe(periodEnd);
  });

  it("an upgrade is charged at once with the plans' credit difference; five at once charge once", async () => {
    const user = await signUp(t);
    await sandboxBuy(t, user.token, { planId: fan._id });
    expect(await balanceOf(t, user.token)).toBe(START + 50);
    await clock.advance(3 * DAY);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => changeTo(user.token, superfan._id)),
    );
    const ok = answers.filter((answer) => answer.statusCode === 200);
    expect(ok).toHaveLength(1);
    for (const other of answers.filter((answer) => answer.statusCode !== 200)) {
      expect([BILLING_MESSAGES.changeInProgress, BILLING_MESSAGES.samePlan]).toContain(
        messageOf(other),
      );
    }
    const result = planChangeResultSchema.parse(ok[0]?.json()).subscription;
    expect(result.change).toBe("upgrade");
    expect(result.proratedAmount).toBeGreaterThan(0);
    const charges = (await payments(user.token)).filter((row) =>
      row.planName?.includes("charged at once"),
    );
    expect(charges).toEqual([
      expect.objectContaining({
        amount: result.proratedAmount,
        status: "success",
        credits: 70,
      }),
    ]);
    // The difference of the plans' credits for this period: 120 - 50.
    expect(await balanceOf(t, user.token)).toBe(START + 120);
  });

  it("down and up again in one period: charged from the account credit, no plan credits twice", async () => {
    const user = await signUp(t);
    await sandboxBuy(t, user.token, { planId: fan._id });
    expect(await balanceOf(t, user.token)).toBe(START + 50);
    // At the very start of the period: the whole difference, 19.99 - 9.99 = 10.00.
    const first = planChangeResultSchema.parse(
      (await changeTo(user.token, superfan._id)).json(),
    ).subscription;
    expect(first).toMatchObject({
      change: "upgrade",
      proratedAmount: 10,
      paidFromAccountCredit: 0,
    });
    expect(await balanceOf(t, user.token)).toBe(START + 120);
    for (let round = 0; round < 3; round += 1) {
      const down = planChangeResultSchema.parse(
        (await changeTo(user.token, fan._id)).json(),
      ).subscription;
      expect(down).toMatchObject({ change: "downgrade", proratedAmount: -10 });
      const up = await changeTo(user.token, superfan._id);
      expect(up.statusCode, up.body).toBe(200);
      // Paid from the credit the downgrade left, and it says so; Superfan's credits were given.
      expect(planChangeResultSchema.parse(up.json()).subscription).toMatchObject({
        change: "upgrade",
        proratedAmount: 0,
        paidFromAccountCredit: 10,
      });
      expect(await balanceOf(t, user.token)).toBe(START + 120);
    }
    const changes = (await payments(user.token)).filter((row) =>
      row.planName?.startsWith("Superfan (plan change"),
    );
    expect(changes).toHaveLength(4);
    expect(changes.filter((row) => row.amount === 10 && row.credits === 70)).toHaveLength(1);
    expect(
      changes.filter(
        (row) =>
          row.amount === 0 &&
          row.credits === 0 &&
          row.planName === "Superfan (plan change: $10.00 paid from your account credit)",
      ),
    ).toHaveLength(3);
    // The next period brings its plan's credits again, in full.
    await reachPeriodEnd(user.token);
    expect(await balanceOf(t, user.token)).toBe(START + 240);
  });

  it("resuming a canceling subscription is in its history, which agrees with its details", async () => {
    const user = await signUp(t);
    await sandboxBuy(t, user.token, { planId: fan._id });
    const newest = async () => (await history(user.token))[0];
    expect(
      (await call(t, "POST", "/api/subscriptions/cancel", { token: user.token })).statusCode,
    ).toBe(200);
    expect(await newest()).toMatchObject({ eventType: "canceled", autoRenew: false });
    // Choosing the same plan again resumes it (user-side); the admin's tool does the same.
    const resumed = await changeTo(user.token, fan._id);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(await mine(user.token)).toMatchObject({ status: "active", autoRenew: true });
    expect(await newest()).toMatchObject({
      eventType: "updated",
      status: "active",
      autoRenew: true,
    });
    // Canceled again in the same period: the history ends canceled again.
    await call(t, "POST", "/api/subscriptions/cancel", { token: user.token });
    expect(await newest()).toMatchObject({ eventType: "canceled", autoRenew: false });
    const resumedByAdmin = await call(
      t,
      "POST",
      `/api/admin/users/${user.user.id}/subscription/resume`,
      { token: admin, body: { reason: "The fan asked to keep it" } },
    );
    expect(resumedByAdmin.statusCode, resumedByAdmin.body).toBe(200);
    expect(await newest()).toMatchObject({ eventType: "updated", autoRenew: true });
    expect((await history(user.token)).map((event) => event.eventType)).toEqual([
      "updated",
      "canceled",
      "updated",
      "canceled",
      "created",
    ]);
  });

  it("a declined renewal goes past_due, then unpaid, with payment_failed events", async () => {
    const user = await signUp(t);
    await sandboxBuy(t, user.token, { planId: fan._id });
    const subscriptionId = (await mine(user.token)).stripeSubscriptionId ?? "";
    await t.app.billing.sandbox.updateCard(subscriptionId, SANDBOX_CARDS.declined);

    expect((await reachPeriodEnd(user.token)).past_due).toBe(1);
    let now = await mine(user.token);
    expect(now).toMatchObject({ status: "active", providerStatus: "past_due" });
    // An upgrade the saved card refuses changes nothing (as Stripe's error_if_incomplete).
    const refused = await changeTo(user.token, superfan._id);
    expect(refused.statusCode, refused.body).toBe(402);
    expect(messageOf(refused)).toBe(BILLING_MESSAGES.cardDeclined);
    expect((await mine(user.token)).plan?._id).toBe(fan._id);
    // Not retried before a day has passed, then the last attempt leaves it unpaid.
    expect((await t.app.billing.renewals.sweep()).past_due).toBe(0);
    await clock.advance(DAY);
    expect((await t.app.billing.renewals.sweep()).unpaid).toBe(1);
    now = await mine(user.token);
    expect(now).toMatchObject({ status: "inactive", providerStatus: "unpaid" });

    const failed = (await payments(user.token)).filter((row) => row.status === "failed");
    expect(failed.map((row) => row.amount)).toEqual([9.99, 9.99]);
    const events = (await history(user.token)).map((event) => event.eventType);
    expect(events.filter((type) => type === "payment_failed")).toHaveLength(2);
    expect(await balanceOf(t, user.token)).toBe(START + 50);
    // Unpaid is over: the sweep leaves it alone, and the fan may subscribe again.
    await clock.advance(40 * DAY);
    expect((await t.app.billing.renewals.sweep()).unpaid).toBe(0);
    const again = await sandboxBuy(t, user.token, { planId: fan._id });
    expect(again.paid.statusCode, again.paid.body).toBe(200);
  });

  it("set to cancel, it stays Canceling until its end; two sweeps at once end it once", async () => {
    const user = await signUp(t);
    await sandboxBuy(t, user.token, { planId: superfan._id });
    const canceled = await call(t, "POST", "/api/subscriptions/cancel", { token: user.token });
    expect(canceled.statusCode, canceled.body).toBe(200);
    const me = (await call(t, "GET", "/api/auth/me", { token: user.token })).json().data;
    expect(me.subscription).toMatchObject({ status: "canceled", planName: "Superfan" });
    const detail = (
      await call(t, "GET", `/api/admin/users/${user.user.id}`, { token: admin })
    ).json().data;
    expect(detail.subscription).toMatchObject({
      status: "canceled",
      autoRenew: false,
      cancelAtPeriodEnd: true,
      plan: { name: "Superfan", interval: "month", intervalCount: 1, duration: 1 },
    });

    const end = Date.parse((await mine(user.token)).endDate ?? "");
    await clock.advance(end - clock.now() + 1000);
    const [first, second] = await Promise.all([
      t.app.billing.renewals.sweep(),
      t.app.billing.renewals.sweep(),
    ]);
    expect((first?.ended ?? 0) + (second?.ended ?? 0)).toBeGreaterThanOrEqual(1);
    expect(await mine(user.token)).toMatchObject({
      status: "inactive",
      providerStatus: "canceled",
    });
    const paidRows = (await payments(user.token)).filter((row) => row.status === "success");
    expect(paidRows).toHaveLength(1);
    const ended = (await history(user.token)).filter((event) => event.eventType === "canceled");
    expect(ended).toHaveLength(2);
  });
});
