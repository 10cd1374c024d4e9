import {
  CONSENT_MESSAGES,
  CONSENT_VERSIONS,
  mySubscriptionResponseSchema,
  PROMOTION_MESSAGES,
  SANDBOX_CARDS,
  userTransactionsResponseSchema,
} from "@twinline/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPlan, sandboxBuy } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { createManualClock } from "../../../../test/manual-clock.ts";
import { adminAuditLog, checkoutConsents, users } from "../../../db/schema/index.ts";

const DAY = 86_400_000;
/** Every new account starts with the settings' default credits. */
const START = 100;

/** Free trial days on a plan through the sandbox, on a clock the test moves (issue 27 item 4). */
describe("free trials in the sandbox", () => {
  const clock = createManualClock();
  let t: TestApp;
  let admin: string;
  let trialPlan: Awaited<ReturnType<typeof createPlan>>;

  beforeAll(async () => {
    t = await createTestApp({ billingClock: clock, billingSweeps: false });
    admin = (await adminSession(t)).token;
    trialPlan = await createPlan(t, admin, { name: "Trial Fan", price: 9.99, credits: 50 });
    const edited = await call(t, "PUT", `/api/subscriptions/${trialPlan._id}`, {
      token: admin,
      body: { name: "Trial Fan", trialDays: 7 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ trialDays: 7 });
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
  const subscribedUntil = async (userId: string) => {
    const [row] = await t.app.database.db
      .select({ until: sql<string | null>`${users.subscribedUntil}::text` })
      .from(users)
      .where(eq(users.id, userId));
    return row?.until ?? null;
  };
  const endOfTrial = async () => {
    await clock.advance(7 * DAY + 60_000);
    return t.app.billing.renewals.sweep();
  };
  const consentOf = async (sessionId: string) => {
    const [row] = await t.app.database.db
      .select()
      .from(checkoutConsents)
      .where(eq(checkoutConsents.checkoutSessionId, sessionId));
    return row;
  };
  /** "Dec 4, 2026": the day a moment falls on in UTC, as the consent words it. */
  const utcDay = (ms: number) =>
    new Date(ms).toLocaleDateString("en-US", {
      month: "short",
      day: "numeric",
      year: "numeric",
      timeZone: "UTC",
    });
  const charged = (rows: Awaited<ReturnType<typeof payments>>) =>
    rows.filter((row) => row.status === "success" && row.amount > 0);

  it("refuses bad trial days naming the field, and audits the change", async () => {
    for (const trialDays of [-1, 91, 2.5, "x"]) {
      const response = await call(t, "PUT", `/api/subscriptions/${trialPlan._id}`, {
        token: admin,
        body: { name: "Trial Fan", trialDays },
      });
      expect(response.statusCode, String(trialDays)).toBe(400);
      expect(messageOf(response)).toMatch(/Trial days/);
    }
    const created = await call(t, "POST", "/api/subscriptions", {
      token: admin,
      body: { name: "Too long", price: 5, trialDays: 365 },
    });
    expect(created.statusCode).toBe(400);
    expect(messageOf(created)).toContain("Trial days must be at most 90");
    const audited = await t.app.database.db
      .select({ after: adminAuditLog.after })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, trialPlan._id));
    expect(JSON.stringify(audited.map((row) => row.after))).toMatch(/"trialDays":7/);
  });

  it("trial → active: in force at once and unpaid, charged and credited at the trial's end", async () => {
    const user = await signUp(t);
    const started = clock.now();
    const { paid } = await sandboxBuy(t, user.token, { planId: trialPlan._id });
    expect(paid.statusCode, paid.body).toBe(200);

    const trial = await mine(user.token);
    expect(trial).toMatchObject({
      status: "trialing",
      providerStatus: "trialing",
      autoRenew: true,
    });
    expect(new Date(trial.endDate ?? "").getTime()).toBe(
      Math.floor((started + 7 * DAY) / 1000) * 1000,
    );
    const me = (await call(t, "GET", "/api/auth/me", { token: user.token })).json().data;
    expect(me.subscription).toMatchObject({ status: "trialing", planName: "Trial Fan" });
    expect(await subscribedUntil(user.user.id)).toBe("infinity");
    // Nothing charged, no paid credits.
    expect(charged(await payments(user.token))).toEqual([]);
    expect(await balanceOf(t, user.token)).toBe(START);

    expect((await endOfTrial()).renewed).toBe(1);
    expect(await mine(user.token)).toMatchObject({ status: "active", providerStatus: "active" });
    expect(charged(await payments(user.token)).map((row) => row.amount)).toEqual([9.99]);
    expect(await balanceOf(t, user.token)).toBe(START + 50);
  });

  it("trial → canceled: canceled during the trial, it ends at the trial's end without a charge", async () => {
    const user = await signUp(t);
    await sandboxBuy(t, user.token, { planId: trialPlan._id });
    const canceled = await call(t, "POST", "/api/subscriptions/cancel", { token: user.token });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(await mine(user.token)).toMatchObject({ status: "canceled" });

    expect((await endOfTrial()).ended).toBe(1);
    expect(await mine(user.token)).toMatchObject({
      status: "inactive",
      providerStatus: "canceled",
    });
    expect(charged(await payments(user.token))).toEqual([]);
    expect(await balanceOf(t, user.token)).toBe(START);
    expect(await subscribedUntil(user.user.id)).not.toBe("infinity");

    // One trial per fan, ever: subscribing again charges at once, under the usual words.
    const again = await sandboxBuy(t, user.token, { planId: trialPlan._id });
    expect(again.paid.statusCode, again.paid.body).toBe(200);
    expect((await consentOf(again.sessionId))?.text).toBe(
      "$9.99 charged every month until you cancel; cancel any time in your dashboard.",
    );
    expect(await mine(user.token)).toMatchObject({ status: "active", providerStatus: "active" });
    expect(charged(await payments(user.token)).map((row) => row.amount)).toEqual([9.99]);
    expect(await balanceOf(t, user.token)).toBe(START + 50);
  });

  it("a declined first charge at the trial's end leaves it past_due, as a renewal", async () => {
    const user = await signUp(t);
    await sandboxBuy(t, user.token, { planId: trialPlan._id });
    const subscriptionId = (await mine(user.token)).stripeSubscriptionId ?? "";
    await t.app.billing.sandbox.updateCard(subscriptionId, SANDBOX_CARDS.declined);
    expect((await endOfTrial()).past_due).toBe(1);
    expect(await mine(user.token)).toMatchObject({ status: "active", providerStatus: "past_due" });
    const failed = (await payments(user.token)).filter((row) => row.status === "failed");
    expect(failed.map((row) => row.amount)).toEqual([9.99]);
    expect(await balanceOf(t, user.token)).toBe(START);
  });

  it("refuses a promotion code on a trial checkout, naming the field", async () => {
    const user = await signUp(t);
    const response = await call(t, "POST", "/api/subscriptions/create-checkout", {
      token: user.token,
      body: {
        planId: trialPlan._id,
        consentVersion: CONSENT_VERSIONS.plan,
        promotionCode: "ANYCODE",
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: PROMOTION_MESSAGES.notWithTrial,
      error: { field: "promotionCode" },
    });
  });

  it("records the trial's consent (first charge and its date) under the new version; the old version is refused", async () => {
    const stale = await signUp(t);
    const refused = await call(t, "POST", "/api/subscriptions/create-checkout", {
      token: stale.token,
      // The version before the trial's words (decision 0064: a page with the old box reloads).
      body: { planId: trialPlan._id, consentVersion: "plan-renewal-2026-11-26" },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      message: CONSENT_MESSAGES.stale,
      error: { field: "consentVersion" },
    });
    expect(CONSENT_VERSIONS.plan).not.toBe("plan-renewal-2026-11-26");
    expect(
      await t.app.database.db
        .select()
        .from(checkoutConsents)
        .where(eq(checkoutConsents.userId, stale.user.id)),
    ).toEqual([]);

    const user = await signUp(t);
    const { sessionId, paid } = await sandboxBuy(t, user.token, { planId: trialPlan._id });
    expect(paid.statusCode, paid.body).toBe(200);
    const trialEnd = new Date((await mine(user.token)).endDate ?? "").getTime();
    expect(await consentOf(sessionId)).toMatchObject({
      userId: user.user.id,
      kind: "plan",
      version: CONSENT_VERSIONS.plan,
      planId: trialPlan._id,
      text:
        "7-day free trial, then $9.99 charged every month until you cancel. Your card is " +
        `charged $9.99 automatically when the trial ends on ${utcDay(trialEnd)} (UTC) unless you ` +
        "cancel before then; cancel any time in your dashboard.",
    });
  });
});
