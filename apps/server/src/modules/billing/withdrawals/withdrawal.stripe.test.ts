import { withdrawResponseSchema } from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call } from "../../../../test/accounts.ts";
import { balanceOf } from "../../../../test/billing.ts";
import type { TestApp } from "../../../../test/create-test-app.ts";
import { stripeBuyer, stripeSubscriber, useStripeSuite } from "../../../../test/stripe-app.ts";
import { deliver } from "../../../../test/stripe-webhooks.ts";
import {
  adminAuditLog,
  mailOutbox,
  paymentRefunds,
  payments,
  userSubscriptions,
} from "../../../db/schema/index.ts";

type Json = Record<string, unknown>;

/** Withdrawal with Stripe: the real SDK against the local fake Stripe (packages/fakes). */
describe("withdrawal from a purchase (Stripe)", () => {
  let t: TestApp;
  let fake: FakeStripe;
  let admin: string;
  useStripeSuite((suite) => {
    ({ t, fake, admin } = suite);
  });

  const db = () => t.app.database.db;
  const delivered = async (event: Json) => {
    const response = await deliver(t, event);
    expect(response.statusCode, response.body).toBe(200);
  };
  const withdraw = (token: string, paymentId: string) =>
    call(t, "POST", `/api/payments/${paymentId}/withdrawal`, { token, body: { confirm: true } });

  /** A fan who bought 100 credits for $9.99 through Stripe Checkout and kept `keep` credits. */
  const buyer = async (keep: number) => {
    const bought = await stripeBuyer(
      { t, fake, admin },
      { name: "Stripe W", credits: 100, price: 9.99 },
    );
    const { fan } = bought;
    const spend = (await balanceOf(t, fan.token)) - keep;
    await call(t, "POST", `/api/admin/users/${fan.user.id}/credits`, {
      token: admin,
      body: { delta: -spend, reason: "Spent in calls" },
    });
    return bought;
  };

  it("refunds the unused share at Stripe once; replays and the charge.refunded webhook change nothing", async () => {
    const { fan, payment, paymentIntent } = await buyer(45);
    // 45 of 100 unused: 9.99 x 45 / 100 = 4.4955 -> $4.50.
    const answers = await Promise.all([
      withdraw(fan.token, payment.id),
      withdraw(fan.token, payment.id),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    // One request makes the refund; the other, arriving while it is at Stripe, answers the same
    // withdrawal as it stands then: done, or still pending. Which one comes first is the race's.
    const withdrawals = answers.map(
      (answer) => withdrawResponseSchema.parse(answer.json()).data.withdrawal,
    );
    expect(new Set(withdrawals.map((withdrawal) => withdrawal._id)).size).toBe(1);
    for (const withdrawal of withdrawals) {
      expect(["succeeded", "pending"]).toContain(withdrawal.status);
    }
    const done = withdrawals.find((withdrawal) => withdrawal.status === "succeeded");
    expect(done).toMatchObject({
      status: "succeeded",
      refundAmount: 4.5,
      creditsTakenBack: 45,
    });
    const atStripe = [...fake.refunds.values()].filter((r) => r.payment_intent === paymentIntent);
    expect(atStripe).toHaveLength(1);
    expect(atStripe[0]).toMatchObject({ amount: 450, metadata: { refundId: done?._id } });
    expect(await balanceOf(t, fan.token)).toBe(0);

    const event = fake.event("charge.refunded", await fake.chargeOf(paymentIntent));
    await delivered(event);
    await delivered(event);
    expect(await withdraw(fan.token, payment.id).then((r) => r.statusCode)).toBe(200);
    const rows = await db()
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, payment.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "succeeded", creditsTaken: 45, creditsShortfall: 0 });
    const [row] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(row?.refundedMinor).toBe(450);
    expect(await balanceOf(t, fan.token)).toBe(0);
    await t.app.fanMail.idle();
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.to, fan.user.email));
    expect(mails.filter((mail) => mail.subject.startsWith("Your withdrawal from"))).toHaveLength(1);
  });

  it("gives the credits back when Stripe refuses the refund, with its audit entry, and sends no e-mail", async () => {
    const { fan, payment, paymentIntent } = await buyer(60);
    await fake.refundInDashboard(paymentIntent);
    const refused = await withdraw(fan.token, payment.id);
    expect(refused.statusCode).toBe(502);
    expect(await balanceOf(t, fan.token)).toBe(60);
    const rows = await db()
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, payment.id));
    expect(rows.map((r) => r.status)).toEqual(["failed"]);
    const [row] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(row?.metadata.withdrawnAt).toBeUndefined();
    const audit = await db()
      .select({ action: adminAuditLog.action })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, payment.id));
    expect(audit.map((a) => a.action).sort()).toEqual([
      "payment.withdrawal",
      "payment.withdrawal_failed",
    ]);
    await t.app.fanMail.idle();
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.to, fan.user.email));
    expect(mails.filter((mail) => mail.subject.startsWith("Your withdrawal from"))).toEqual([]);
  });

  it("ends a Stripe plan now and refunds the unused part of its period", async () => {
    const { fan } = await stripeSubscriber(
      { t, fake, admin },
      { name: "Stripe W plan", price: 15, credits: 25 },
    );
    const [payment] = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.userId, fan.user.id), eq(payments.kind, "subscription")));
    if (!payment?.stripePaymentId) throw new Error("no plan payment");
    const before = await balanceOf(t, fan.token);

    const answer = await withdraw(fan.token, payment.id);
    expect(answer.statusCode, answer.body).toBe(200);
    const { withdrawal } = withdrawResponseSchema.parse(answer.json()).data;
    expect(withdrawal).toMatchObject({ endsPlan: true, creditsTakenBack: 25 });
    // Moments into a month: all but a cent or so of $15.
    expect(withdrawal.refundAmount).toBeGreaterThan(14.9);
    expect(withdrawal.refundAmount).toBeLessThanOrEqual(15);
    expect(await balanceOf(t, fan.token)).toBe(before - 25);
    const [mirrored] = await db()
      .select()
      .from(userSubscriptions)
      .where(eq(userSubscriptions.userId, fan.user.id));
    expect(fake.subscriptions.get(String(mirrored?.providerSubscriptionId))?.status).toBe(
      "canceled",
    );
    const atStripe = [...fake.refunds.values()].filter(
      (r) => r.payment_intent === payment.stripePaymentId,
    );
    expect(atStripe.map((r) => r.amount)).toEqual([Math.round(withdrawal.refundAmount * 100)]);
    const mine = await call(t, "GET", "/api/subscriptions/my-subscription", { token: fan.token });
    expect(mine.json().data.status).toBe("inactive");
  });
});
