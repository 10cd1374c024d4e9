import { CONSENT_VERSIONS } from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPlan } from "../../../../test/billing.ts";
import type { TestApp } from "../../../../test/create-test-app.ts";
import { stripeBuyer, useStripeSuite } from "../../../../test/stripe-app.ts";
import { deliver } from "../../../../test/stripe-webhooks.ts";
import {
  checkoutSessions,
  paymentRefunds,
  payments,
  userSubscriptions,
} from "../../../db/schema/index.ts";

type Json = Record<string, unknown>;

/** Refunds, disputes and one subscription per user with Stripe (real SDK, local Stripe). */
describe("money tools (Stripe)", () => {
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
    return response.json() as { received: true; duplicate?: true };
  };

  /** A fan who bought 500 credits for $10 through Stripe Checkout. */
  const buyer = async () => {
    const bought = await stripeBuyer(
      { t, fake, admin },
      { name: "Stripe 500", credits: 500, price: 10 },
    );
    expect(await balanceOf(t, bought.fan.token)).toBe(600);
    return bought;
  };

  const refundRows = (paymentId: string) =>
    db().select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId));

  it("refunds through Stripe's refunds API once; the charge.refunded webhook that follows changes nothing", async () => {
    const { fan, payment, paymentIntent } = await buyer();
    const response = await call(t, "POST", `/api/admin/payments/${payment.id}/refund`, {
      token: admin,
      body: { amount: 4, reason: "Partial goodwill" },
    });
    expect(response.statusCode, response.body).toBe(200);
    const atStripe = [...fake.refunds.values()].filter((r) => r.payment_intent === paymentIntent);
    expect(atStripe).toHaveLength(1);
    expect(atStripe[0]).toMatchObject({ amount: 400, metadata: { refundId: expect.any(String) } });
    expect(await balanceOf(t, fan.token)).toBe(400);

    const event = fake.event("charge.refunded", await fake.chargeOf(paymentIntent));
    expect(await delivered(event)).toEqual({ received: true });
    expect(await delivered(event)).toEqual({ received: true, duplicate: true });
    expect(await refundRows(payment.id)).toHaveLength(1);
    expect(await balanceOf(t, fan.token)).toBe(400);
    const [row] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(row).toMatchObject({ status: "success", refundedMinor: 400 });
  });

  it("a refund made in Stripe's dashboard takes the credits back exactly once, replays and repeats included", async () => {
    const { fan, payment, paymentIntent } = await buyer();
    const { charge } = await fake.refundInDashboard(paymentIntent);
    const event = fake.event("charge.refunded", charge);
    await Promise.all([delivered(event), delivered(event), delivered(event)]);
    // Another event about the same refund (Stripe may send charge.refunded again).
    await delivered(fake.event("charge.refunded", charge));
    const rows = await refundRows(payment.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "provider", status: "succeeded", amountMinor: 1000 });
    expect(await balanceOf(t, fan.token)).toBe(100);
    const history = await call(t, "GET", "/api/payments/history", { token: fan.token });
    expect(history.json().data[0]).toMatchObject({ status: "refunded", refundedAmount: 10 });
    // Nothing is left for the operator to refund.
    const again = await call(t, "POST", `/api/admin/payments/${payment.id}/refund`, {
      token: admin,
      body: { reason: "Again" },
    });
    expect(again.statusCode).toBe(409);
  });

  it("a dispute takes the credits back exactly once", async () => {
    const { fan, payment, paymentIntent } = await buyer();
    const dispute = await fake.openDispute(paymentIntent);
    const event = fake.event("charge.dispute.created", dispute);
    await Promise.all([delivered(event), delivered(fake.event("charge.dispute.created", dispute))]);
    await delivered(event);
    const rows = await refundRows(payment.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "dispute", amountMinor: 1000, creditsTaken: 500 });
    expect(await balanceOf(t, fan.token)).toBe(100);
  });

  it("a refund Stripe refuses fails the claim: 502 with Stripe's words, the money refundable again", async () => {
    const { payment, paymentIntent } = await buyer();
    // Refunded at Stripe, but the webhook has not arrived yet.
    await fake.refundInDashboard(paymentIntent);
    const response = await call(t, "POST", `/api/admin/payments/${payment.id}/refund`, {
      token: admin,
      body: { reason: "Race with the dashboard" },
    });
    expect(response.statusCode, response.body).toBe(502);
    expect(response.json().message).toContain("already been refunded");
    const rows = await refundRows(payment.id);
    expect(rows.map((row) => row.status)).toEqual(["failed"]);
  });

  it("two Stripe tabs paid for plans: one subscription, the second ended and refunded, never a 500", async () => {
    const plan = await createPlan(t, admin, { name: "Stripe Tabs", price: 15, credits: 25 });
    const fan = await signUp(t);
    const open = async () => {
      const response = await call(t, "POST", "/api/subscriptions/create-checkout", {
        token: fan.token,
        body: { planId: plan._id, consentVersion: CONSENT_VERSIONS.plan },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().sessionId as string;
    };
    const first = await open();
    // Stripe still has the first tab open; our row was closed (it looked abandoned).
    await db()
      .update(checkoutSessions)
      .set({ status: "expired" })
      .where(eq(checkoutSessions.sessionId, first));
    const second = await open();

    const events: Json[] = [];
    for (const sessionId of [first, second]) {
      const done = await fake.completeCheckout(sessionId);
      events.push(
        fake.event("checkout.session.completed", done.session),
        fake.event("customer.subscription.created", done.subscription as Json),
        fake.event("invoice.paid", done.invoice as Json),
      );
    }
    const answers = await Promise.all(events.map((event) => deliver(t, event)));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    // Stripe then tells of the cancellation and the refund: nothing more changes.
    const canceled = [...fake.subscriptions.values()].filter((s) => s.status === "canceled");
    expect(canceled).toHaveLength(1);
    await delivered(fake.event("customer.subscription.deleted", canceled[0] as Json));

    const mirrored = await db()
      .select()
      .from(userSubscriptions)
      .where(eq(userSubscriptions.userId, fan.user.id));
    expect(mirrored).toHaveLength(1);
    expect(mirrored[0]?.status).toBe("active");
    expect(mirrored[0]?.providerSubscriptionId).not.toBe(canceled[0]?.id);
    const rows = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.userId, fan.user.id), eq(payments.kind, "subscription")));
    expect(rows.map((row) => row.status).sort()).toEqual(["refunded", "success"]);
    const refunded = rows.find((row) => row.status === "refunded");
    const atStripe = [...fake.refunds.values()].filter(
      (r) => r.payment_intent === refunded?.stripePaymentId,
    );
    expect(atStripe).toHaveLength(1);
    expect(atStripe[0]).toMatchObject({ amount: 1500 });
    await delivered(
      fake.event("charge.refunded", await fake.chargeOf(String(refunded?.stripePaymentId))),
    );
    expect(await balanceOf(t, fan.token)).toBe(125);
    expect(await refundRows(String(refunded?.id))).toHaveLength(1);
  });
});
