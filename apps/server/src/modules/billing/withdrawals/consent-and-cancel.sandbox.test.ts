import {
  adminPaymentDetailsResponseSchema,
  BILLING_MESSAGES,
  CONSENT_MESSAGES,
  CONSENT_VERSIONS,
  cancelSubscriptionResponseSchema,
  creditsConsentText,
  MONEY_TOOLS_MESSAGES,
  planConsentText,
} from "@twinline/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../../test/accounts.ts";
import { createPackage, createPlan, sandboxBuy } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { checkoutConsents, payments } from "../../../db/schema/index.ts";

/** Consent recorded at checkout, shown to the admin; the fan's cancel and resume (issue 26). */
describe("consent at checkout, cancel and resume (sandbox)", () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await adminSession(t)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.app.database.db;

  it("refuses a checkout without the ticked box with a 400 naming the field, and a stale version", async () => {
    const pack = await createPackage(t, admin, { name: "Consent 100", credits: 100, price: 9.99 });
    const plan = await createPlan(t, admin, { name: "Consent plan", price: 9.99 });
    const fan = await signUp(t);
    for (const [path, body] of [
      ["/api/payments/create-checkout-session", { packageId: pack._id }],
      ["/api/subscriptions/create-checkout", { planId: plan._id }],
    ] as const) {
      const missing = await call(t, "POST", path, { token: fan.token, body });
      expect(missing.statusCode, missing.body).toBe(400);
      expect(messageOf(missing)).toBe(`consentVersion: ${CONSENT_MESSAGES.required}`);
      const stale = await call(t, "POST", path, {
        token: fan.token,
        body: { ...body, consentVersion: "plan-renewal-1999-01-01" },
      });
      expect(stale.statusCode, stale.body).toBe(400);
      expect(stale.json()).toMatchObject({
        message: CONSENT_MESSAGES.stale,
        error: { field: "consentVersion" },
      });
    }
    // The box of the other kind's text is not this one's.
    const crossed = await call(t, "POST", "/api/payments/create-checkout-session", {
      token: fan.token,
      body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.plan },
    });
    expect(crossed.statusCode).toBe(400);
    expect(
      await db().select().from(checkoutConsents).where(eq(checkoutConsents.userId, fan.user.id)),
    ).toEqual([]);
  });

  it("stores the consent with every field, in the server's words, and shows it on the payment's details", async () => {
    const pack = await createPackage(t, admin, {
      name: "Consent 250",
      credits: 250,
      price: 20,
      discount: 10,
    });
    const fan = await signUp(t);
    const before = Date.now();
    const { sessionId, paid } = await sandboxBuy(t, fan.token, { packageId: pack._id });
    expect(paid.statusCode, paid.body).toBe(200);

    const [stored] = await db()
      .select()
      .from(checkoutConsents)
      .where(eq(checkoutConsents.checkoutSessionId, sessionId));
    const text = creditsConsentText({ credits: 250, price: 18, currency: "usd" });
    expect(text).toBe(
      "I want my 250 credits ($18.00) delivered immediately, and I acknowledge that I lose my right of withdrawal for the credits I use.",
    );
    expect(stored).toMatchObject({
      userId: fan.user.id,
      kind: "credits",
      version: CONSENT_VERSIONS.credits,
      text,
      packageId: pack._id,
      planId: null,
      amountMinor: 1800,
      currency: "usd",
      ipAddress: "127.0.0.1",
    });
    expect(stored?.acceptedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const [payment] = await db().select().from(payments).where(eq(payments.userId, fan.user.id));
    const details = await call(t, "GET", `/api/admin/payments/${payment?.id}`, { token: admin });
    expect(details.statusCode, details.body).toBe(200);
    const { data } = adminPaymentDetailsResponseSchema.parse(details.json());
    expect(data.consent).toMatchObject({
      kind: "credits",
      version: CONSENT_VERSIONS.credits,
      text,
      price: 18,
      currency: "usd",
      ipAddress: "127.0.0.1",
      packageId: pack._id,
    });
    // Only the admin reads it.
    const asFan = await call(t, "GET", `/api/admin/payments/${payment?.id}`, { token: fan.token });
    expect(asFan.statusCode).toBe(403);
    const unknown = await call(t, "GET", `/api/admin/payments/${crypto.randomUUID()}`, {
      token: admin,
    });
    expect(unknown.statusCode).toBe(404);
    expect(messageOf(unknown)).toBe(MONEY_TOOLS_MESSAGES.paymentNotFound);
  });

  it("stores a plan's renewal terms and shows them on its payment", async () => {
    const plan = await createPlan(t, admin, {
      name: "Quarterly",
      price: 9.99,
      interval: "month",
      intervalCount: 3,
    });
    const fan = await signUp(t);
    const { paid } = await sandboxBuy(t, fan.token, { planId: plan._id });
    expect(paid.statusCode, paid.body).toBe(200);
    const [payment] = await db().select().from(payments).where(eq(payments.userId, fan.user.id));
    const details = await call(t, "GET", `/api/admin/payments/${payment?.id}`, { token: admin });
    const { data } = adminPaymentDetailsResponseSchema.parse(details.json());
    expect(data.consent).toMatchObject({
      kind: "plan",
      version: CONSENT_VERSIONS.plan,
      text: "$9.99 charged every 3 months until you cancel; cancel any time in your dashboard.",
      planId: plan._id,
      price: 9.99,
    });
    expect(data.consent?.text).toBe(
      planConsentText({ price: 9.99, currency: "usd", interval: "month", intervalCount: 3 }),
    );
  });

  it("cancels with the period's end in the answer, then resumes without picking the plan again", async () => {
    const plan = await createPlan(t, admin, { name: "Resumable", price: 5 });
    const fan = await signUp(t);
    const { paid } = await sandboxBuy(t, fan.token, { planId: plan._id });
    expect(paid.statusCode, paid.body).toBe(200);

    const notCanceling = await call(t, "POST", "/api/subscriptions/resume", { token: fan.token });
    expect(notCanceling.statusCode).toBe(400);
    expect(messageOf(notCanceling)).toBe(MONEY_TOOLS_MESSAGES.notCanceling);

    const canceled = await call(t, "POST", "/api/subscriptions/cancel", { token: fan.token });
    expect(canceled.statusCode, canceled.body).toBe(200);
    const cancelAnswer = cancelSubscriptionResponseSchema.parse(canceled.json());
    expect(cancelAnswer.subscription).toMatchObject({
      status: "canceled",
      cancelAtPeriodEnd: true,
    });
    expect(cancelAnswer.subscription.endDate).toBeTruthy();

    const resumed = await call(t, "POST", "/api/subscriptions/resume", { token: fan.token });
    expect(resumed.statusCode, resumed.body).toBe(200);
    const answer = cancelSubscriptionResponseSchema.parse(resumed.json());
    expect(answer.message).toBe(BILLING_MESSAGES.resumed);
    expect(answer.subscription).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: false,
      autoRenew: true,
      endDate: cancelAnswer.subscription.endDate,
    });
    const mine = await call(t, "GET", "/api/subscriptions/my-subscription", { token: fan.token });
    expect(mine.json().data).toMatchObject({ status: "active", cancelAtPeriodEnd: false });

    const none = await signUp(t);
    const nothing = await call(t, "POST", "/api/subscriptions/resume", { token: none.token });
    expect(nothing.statusCode).toBe(400);
    expect(messageOf(nothing)).toBe(BILLING_MESSAGES.noActiveSubscription);
  });
});
