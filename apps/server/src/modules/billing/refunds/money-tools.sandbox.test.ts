import { randomUUID } from "node:crypto";
import {
  adminCreditAdjustmentResponseSchema,
  adminRefundResponseSchema,
  adminSubscriptionActionResponseSchema,
  auditLogResponseSchema,
  CONSENT_VERSIONS,
  MONEY_TOOLS_MESSAGES,
  SANDBOX_CARDS,
} from "@twinline/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPackage, createPlan, sandboxBuy } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import {
  checkoutSessions,
  creditLedger,
  paymentRefunds,
  payments,
  userSubscriptions,
} from "../../../db/schema/index.ts";

/** The operator's money tools and one subscription per user, on the offline sandbox. */
describe("money tools (sandbox)", () => {
  let t: TestApp;
  let admin: { token: string; id: string; email: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminSession(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.app.database.db;

  /** A fan who bought `credits` credits for $`price` through the sandbox; answers the payment. */
  const buyer = async (credits = 500, price = 10) => {
    const pack = await createPackage(t, admin.token, { name: `Pack ${credits}`, credits, price });
    const fan = await signUp(t);
    const { paid } = await sandboxBuy(t, fan.token, { packageId: pack._id });
    expect(paid.statusCode, paid.body).toBe(200);
    const [payment] = await db().select().from(payments).where(eq(payments.userId, fan.user.id));
    if (!payment) throw new Error("no payment row");
    return { fan, payment };
  };

  const refund = (paymentId: string, body: object, token = admin.token) =>
    call(t, "POST", `/api/admin/payments/${paymentId}/refund`, { token, body });

  const adjust = (userId: string, body: object, token = admin.token) =>
    call(t, "POST", `/api/admin/users/${userId}/credits`, { token, body });

  it("refunds a purchase in whole: the credits go back, the row shows refunded, the audit log has it", async () => {
    const { fan, payment } = await buyer(500, 10);
    expect(await balanceOf(t, fan.token)).toBe(600);

    const response = await refund(payment.id, { reason: "Bought by mistake" });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = adminRefundResponseSchema.parse(response.json());
    expect(data.payment).toMatchObject({ status: "refunded", amount: 10, refundedAmount: 10 });
    expect(data.refund).toMatchObject({
      kind: "admin",
      status: "succeeded",
      amount: 10,
      creditsTaken: 500,
      creditsShortfall: 0,
    });
    expect(data.balance).toBe(100);
    expect(await balanceOf(t, fan.token)).toBe(100);

    // The fan's and the admin's lists show it refunded.
    const mine = await call(t, "GET", "/api/payments/history", { token: fan.token });
    expect(mine.json().data[0]).toMatchObject({ status: "refunded", refundedAmount: 10 });
    const listed = await call(t, "GET", "/api/admin/credit-transactions", {
      token: admin.token,
      query: { status: "refunded", userId: fan.user.id },
    });
    expect(listed.json().data).toHaveLength(1);

    // A second refund: nothing is left.
    const again = await refund(payment.id, { reason: "Again" });
    expect(again.statusCode).toBe(409);
    expect(messageOf(again)).toBe(MONEY_TOOLS_MESSAGES.nothingLeft);

    const audit = auditLogResponseSchema.parse(
      (
        await call(t, "GET", "/api/admin/audit-log", {
          token: admin.token,
          query: { action: "payment.refund", targetId: payment.id },
        })
      ).json(),
    );
    expect(audit.data).toHaveLength(1);
    expect(audit.data[0]).toMatchObject({
      admin: { _id: admin.id, email: admin.email },
      targetType: "payment",
      targetId: payment.id,
      before: { status: "success", amount: 10, refundedAmount: 0, reason: "Bought by mistake" },
      after: { payment: { status: "refunded" } },
    });
    expect(audit.data[0]?.ip).toBeTruthy();
  });

  it("refunds in part: credits in proportion, status kept success until all is given back", async () => {
    const { fan, payment } = await buyer(500, 10);
    const first = await refund(payment.id, { amount: 2.5, reason: "Partial" });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({
      payment: { status: "success", refundedAmount: 2.5 },
      refund: { amount: 2.5, creditsTaken: 125 },
      balance: 475,
    });
    const tooMuch = await refund(payment.id, { amount: 7.51, reason: "Too much" });
    expect(tooMuch.statusCode).toBe(400);
    expect(messageOf(tooMuch)).toBe(MONEY_TOOLS_MESSAGES.amountTooLarge);
    const rest = await refund(payment.id, { reason: "The rest" });
    expect(rest.json().data).toMatchObject({
      payment: { status: "refunded", refundedAmount: 10 },
      refund: { amount: 7.5, creditsTaken: 375 },
      balance: 100,
    });
    expect(await balanceOf(t, fan.token)).toBe(100);
  });

  it("takes back only the credits the user still has and records the shortfall", async () => {
    const { fan, payment } = await buyer(500, 10);
    // The fan spent 550 of the 600.
    const spent = await adjust(fan.user.id, { delta: -550, reason: "Spent in calls" });
    expect(spent.statusCode, spent.body).toBe(200);
    const response = await refund(payment.id, { reason: "Chargeback threat" });
    expect(response.json().data).toMatchObject({
      refund: { creditsTaken: 50, creditsShortfall: 450 },
      balance: 0,
    });
  });

  it("refunds once under parallel requests (same dialog submit, or two admins)", async () => {
    const { fan, payment } = await buyer(500, 10);
    const requestId = randomUUID();
    const same = await Promise.all(
      Array.from({ length: 5 }, () => refund(payment.id, { reason: "Double click", requestId })),
    );
    for (const response of same) expect(response.statusCode, response.body).toBe(200);
    const { payment: second } = await buyer(300, 6);
    const many = await Promise.all(
      Array.from({ length: 5 }, () => refund(second.id, { reason: "Two admins" })),
    );
    expect(many.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const response of many.filter((r) => r.statusCode !== 200)) {
      expect(response.statusCode, response.body).toBe(409);
    }
    for (const id of [payment.id, second.id]) {
      const rows = await db()
        .select()
        .from(paymentRefunds)
        .where(and(eq(paymentRefunds.paymentId, id), eq(paymentRefunds.status, "succeeded")));
      expect(rows).toHaveLength(1);
    }
    expect(await balanceOf(t, fan.token)).toBe(100);
  });

  it("a refund claim left pending by a crash is settled by the sweep, once", async () => {
    const { fan, payment } = await buyer(400, 8);
    // The request died after claiming (before or after asking the provider): a pending claim.
    const [claim] = await db()
      .insert(paymentRefunds)
      .values({
        paymentId: payment.id,
        userId: fan.user.id,
        kind: "admin",
        provider: "sandbox",
        amountMinor: 800,
        currency: "usd",
        reason: "Crashed half-way",
        sourceKey: `admin:${randomUUID()}`,
        createdAt: new Date(Date.now() - 10 * 60 * 1000),
      })
      .returning();
    if (!claim) throw new Error("no claim");
    // Meanwhile nothing more can be refunded: the claim holds the money.
    expect((await refund(payment.id, { reason: "Meanwhile" })).statusCode).toBe(409);
    expect(await t.app.billing.refunds.sweep()).toBeGreaterThanOrEqual(1);
    await t.app.billing.refunds.sweep();
    const [settled] = await db()
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.id, claim.id));
    expect(settled).toMatchObject({ status: "succeeded", creditsTaken: 400 });
    const [row] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(row).toMatchObject({ status: "refunded", refundedMinor: 800 });
    expect(await balanceOf(t, fan.token)).toBe(100);
  });

  it("answers 400 with the field to bad refund input, 404 to an unknown payment", async () => {
    const { payment } = await buyer(100, 5);
    for (const [body, field] of [
      [{ amount: -1, reason: "x" }, "amount"],
      [{ amount: 0, reason: "x" }, "amount"],
      [{ amount: 1_000_000, reason: "x" }, "amount"],
      [{ amount: "ten", reason: "x" }, "amount"],
      [{ amount: 1.234, reason: "x" }, "amount"],
      [{ reason: "" }, "reason"],
      [{ reason: "   " }, "reason"],
      [{ reason: "a\u0000b" }, "reason"],
      [{ reason: "x".repeat(501) }, "reason"],
      [{}, "reason"],
      [{ reason: "x", requestId: "not-a-uuid" }, "requestId"],
    ] as const) {
      const response = await refund(payment.id, body);
      expect(response.statusCode, `${JSON.stringify(body)} ${response.body}`).toBe(400);
      expect(messageOf(response)).toContain(field);
    }
    expect((await refund("not-a-uuid", { reason: "x" })).statusCode).toBe(400);
    const unknown = await refund(randomUUID(), { reason: "x" });
    expect(unknown.statusCode).toBe(404);
    // Nothing was refunded by any of them.
    const [row] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(row?.refundedMinor).toBe(0);
  });

  it("is for admins only: no token 401, a user's token 403", async () => {
    const { fan, payment } = await buyer(100, 5);
    expect((await refund(payment.id, { reason: "x" }, "")).statusCode).toBe(401);
    expect((await refund(payment.id, { reason: "x" }, fan.token)).statusCode).toBe(403);
    expect((await adjust(fan.user.id, { delta: 5, reason: "x" }, fan.token)).statusCode).toBe(403);
    expect(
      (
        await call(t, "POST", `/api/admin/users/${fan.user.id}/subscription/cancel`, {
          token: fan.token,
          body: { when: "now", reason: "x" },
        })
      ).statusCode,
    ).toBe(403);
    expect((await call(t, "GET", "/api/admin/audit-log", { token: fan.token })).statusCode).toBe(
      403,
    );
    expect((await call(t, "GET", "/api/admin/audit-log")).statusCode).toBe(401);
    expect(await balanceOf(t, fan.token)).toBe(200);
  });

  it("grants and takes back credits as admin_adjustment, never below zero, once per request id", async () => {
    const fan = await signUp(t);
    const granted = await adjust(fan.user.id, { delta: 250, reason: "Goodwill" });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(adminCreditAdjustmentResponseSchema.parse(granted.json()).data).toEqual({
      balance: 350,
      delta: 250,
      applied: true,
    });
    const below = await adjust(fan.user.id, { delta: -351, reason: "Too much" });
    expect(below.statusCode).toBe(400);
    expect(messageOf(below)).toBe(MONEY_TOOLS_MESSAGES.belowZero);
    expect(await balanceOf(t, fan.token)).toBe(350);

    const requestId = randomUUID();
    const twice = await Promise.all(
      Array.from({ length: 4 }, () =>
        adjust(fan.user.id, { delta: 10, reason: "Double submit", requestId }),
      ),
    );
    for (const response of twice) expect(response.statusCode).toBe(200);
    expect(await balanceOf(t, fan.token)).toBe(360);

    // Parallel take-backs of different requests: never below zero.
    const takes = await Promise.all(
      Array.from({ length: 5 }, () => adjust(fan.user.id, { delta: -100, reason: "Abuse" })),
    );
    expect(takes.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(takes.filter((r) => r.statusCode === 400)).toHaveLength(2);
    expect(await balanceOf(t, fan.token)).toBe(60);

    // In the ledger, with the reason (the user's credit history reads it).
    const ledger = await db()
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, fan.user.id), eq(creditLedger.kind, "admin_adjustment")));
    expect(ledger).toHaveLength(5);
    expect(ledger.find((row) => row.amount === 250)?.metadata).toMatchObject({
      reason: "Goodwill",
      adminId: admin.id,
    });
    const history = await call(t, "GET", "/api/users/credit-history", { token: fan.token });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().data[0]).toMatchObject({
      kind: "admin_adjustment",
      amount: -100,
      balanceAfter: 60,
      reason: "Abuse",
    });
  });

  it("answers 400 with the field to bad adjustments, 404 to an unknown user", async () => {
    const fan = await signUp(t);
    for (const [body, field] of [
      [{ delta: 0, reason: "x" }, "delta"],
      [{ delta: 1.5, reason: "x" }, "delta"],
      [{ delta: "5", reason: "x" }, "delta"],
      [{ delta: 1_000_001, reason: "x" }, "delta"],
      [{ delta: -1_000_001, reason: "x" }, "delta"],
      [{ delta: 5 }, "reason"],
      [{ delta: 5, reason: "\u0000" }, "reason"],
    ] as const) {
      const response = await adjust(fan.user.id, body);
      expect(response.statusCode, `${JSON.stringify(body)} ${response.body}`).toBe(400);
      expect(messageOf(response)).toContain(field);
    }
    expect((await adjust(randomUUID(), { delta: 5, reason: "x" })).statusCode).toBe(404);
    expect(await balanceOf(t, fan.token)).toBe(100);
  });

  it("cancels at period end, resumes, then cancels now with the unused part refunded", async () => {
    const plan = await createPlan(t, admin.token, { name: "Admin Cancel", price: 30, credits: 60 });
    const fan = await signUp(t);
    const { paid } = await sandboxBuy(t, fan.token, { planId: plan._id });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await balanceOf(t, fan.token)).toBe(160);
    const path = `/api/admin/users/${fan.user.id}/subscription`;

    const atEnd = await call(t, "POST", `${path}/cancel`, {
      token: admin.token,
      body: { when: "period_end", reason: "Asked by mail" },
    });
    expect(atEnd.statusCode, atEnd.body).toBe(200);
    expect(
      adminSubscriptionActionResponseSchema.parse(atEnd.json()).data.subscription,
    ).toMatchObject({ cancelAtPeriodEnd: true, autoRenew: false });
    const resumed = await call(t, "POST", `${path}/resume`, {
      token: admin.token,
      body: { reason: "Changed their mind" },
    });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json().data.subscription).toMatchObject({
      cancelAtPeriodEnd: false,
      autoRenew: true,
      status: "active",
    });
    const notCanceling = await call(t, "POST", `${path}/resume`, {
      token: admin.token,
      body: { reason: "Again" },
    });
    expect(notCanceling.statusCode).toBe(400);

    const now = await call(t, "POST", `${path}/cancel`, {
      token: admin.token,
      body: { when: "now", refundUnused: true, reason: "Service outage" },
    });
    expect(now.statusCode, now.body).toBe(200);
    const { data } = adminSubscriptionActionResponseSchema.parse(now.json());
    expect(data.subscription.providerStatus).toBe("canceled");
    // Nearly the whole period was unused: nearly all of the $30, and its credits in proportion.
    expect(data.refund?.amount).toBeGreaterThan(29);
    expect(data.refund?.amount).toBeLessThanOrEqual(30);
    expect(data.refund?.creditsTaken).toBeGreaterThanOrEqual(58);
    const my = await call(t, "GET", "/api/subscriptions/my-subscription", { token: fan.token });
    expect(my.json().data.status).not.toBe("active");

    const nothing = await call(t, "POST", `${path}/cancel`, {
      token: admin.token,
      body: { when: "now", reason: "Twice" },
    });
    expect(nothing.statusCode).toBe(400);
    const bad = await call(t, "POST", `${path}/cancel`, {
      token: admin.token,
      body: { when: "tomorrow", reason: "x" },
    });
    expect(bad.statusCode).toBe(400);
    expect(messageOf(bad)).toContain("when");

    // The entries name the subscription the admin acted on, not the user (issue 24).
    const subscriptionId = data.subscription._id ?? "";
    const audit = await call(t, "GET", "/api/admin/audit-log", {
      token: admin.token,
      query: { targetType: "subscription", targetId: subscriptionId },
    });
    expect(audit.json().data.map((entry: { action: string }) => entry.action)).toEqual([
      "subscription.cancel",
      "subscription.resume",
      "subscription.cancel",
    ]);
  });

  it("one plan checkout at a time: a second one answers 409 until the first is closed", async () => {
    const plan = await createPlan(t, admin.token, { name: "One At A Time", price: 5 });
    const fan = await signUp(t);
    const start = () =>
      call(t, "POST", "/api/subscriptions/create-checkout", {
        token: fan.token,
        body: { planId: plan._id, consentVersion: CONSENT_VERSIONS.plan },
      });
    const parallel = await Promise.all([start(), start(), start()]);
    expect(parallel.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const response of parallel.filter((r) => r.statusCode !== 200)) {
      expect(response.statusCode).toBe(409);
      expect(messageOf(response)).toBe(MONEY_TOOLS_MESSAGES.planCheckoutOpen);
    }
    const open = parallel.find((r) => r.statusCode === 200)?.json().sessionId as string;
    const canceled = await call(t, "POST", `/api/payments/sandbox/sessions/${open}/cancel`, {
      token: fan.token,
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect((await start()).statusCode).toBe(200);
  });

  it("two plan payments completing at once: one subscription, the other refunded and shown so", async () => {
    const plan = await createPlan(t, admin.token, { name: "Two Tabs", price: 20, credits: 40 });
    const fan = await signUp(t);
    const first = await call(t, "POST", "/api/subscriptions/create-checkout", {
      token: fan.token,
      body: { planId: plan._id, consentVersion: CONSENT_VERSIONS.plan },
    });
    expect(first.statusCode, first.body).toBe(200);
    // The first tab stays open at the provider while ours was closed (e.g. it looked expired).
    await db()
      .update(checkoutSessions)
      .set({ status: "expired" })
      .where(eq(checkoutSessions.sessionId, first.json().sessionId));
    const second = await call(t, "POST", "/api/subscriptions/create-checkout", {
      token: fan.token,
      body: { planId: plan._id, consentVersion: CONSENT_VERSIONS.plan },
    });
    expect(second.statusCode, second.body).toBe(200);

    const card = { cardNumber: SANDBOX_CARDS.success, expiry: "12/40", cvc: "123" };
    await Promise.all(
      [first, second].map((each) => t.app.billing.sandbox.pay(each.json().sessionId, card)),
    );

    const subscriptions = await db()
      .select()
      .from(userSubscriptions)
      .where(eq(userSubscriptions.userId, fan.user.id));
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]?.status).toBe("active");
    const rows = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.userId, fan.user.id), eq(payments.kind, "subscription")));
    expect(rows.map((row) => row.status).sort()).toEqual(["refunded", "success"]);
    // One period's credits, not two.
    expect(await balanceOf(t, fan.token)).toBe(140);
    const history = await call(t, "GET", "/api/payments/subscription-history", {
      token: fan.token,
    });
    expect(
      history
        .json()
        .data.map((p: { status: string }) => p.status)
        .sort(),
    ).toEqual(["refunded", "success"]);
    const my = await call(t, "GET", "/api/subscriptions/my-subscription", { token: fan.token });
    expect(my.json().data).toMatchObject({ status: "active", plan: { _id: plan._id } });
  });
});
