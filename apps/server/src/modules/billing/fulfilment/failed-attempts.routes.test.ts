import {
  CONSENT_VERSIONS,
  checkoutSessionResponseSchema,
  userTransactionsResponseSchema,
} from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { describe, expect, it } from "vitest";
import { call, signUp } from "../../../../test/accounts.ts";
import { adminCreditRows, balanceOf, createPackage, createPlan } from "../../../../test/billing.ts";
import type { TestApp } from "../../../../test/create-test-app.ts";
import { useStripeSuite } from "../../../../test/stripe-app.ts";
import { deliver } from "../../../../test/stripe-webhooks.ts";

type Json = Record<string, unknown>;

describe("failed attempts at Stripe's hosted checkout (real SDK against the local Stripe)", () => {
  let t: TestApp;
  let fake: FakeStripe;
  let admin: string;
  useStripeSuite((suite) => {
    ({ t, fake, admin } = suite);
  });

  const send = async (event: Json) => {
    const answer = await deliver(t, event);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as { received: true; duplicate?: true };
  };
  const failedEvent = (intent: Json) => fake.event("payment_intent.payment_failed", intent);

  /** A user with an open Stripe checkout of a 40-credit package at 5.00. */
  const openCheckout = async (name: string) => {
    const pack = await createPackage(t, admin, { name, credits: 40, price: 5 });
    const user = await signUp(t);
    const response = await call(t, "POST", "/api/payments/create-checkout-session", {
      token: user.token,
      body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
    });
    expect(response.statusCode, response.body).toBe(200);
    return { user, sessionId: (response.json() as { sessionId: string }).sessionId };
  };
  const history = async (token: string) =>
    userTransactionsResponseSchema.parse(
      (await call(t, "GET", "/api/payments/history", { token })).json(),
    ).data;
  const failedForAdmin = async (userId: string) =>
    (await adminCreditRows(t, admin, { userId, status: "failed" })).data;
  const sessionView = async (token: string, sessionId: string) =>
    checkoutSessionResponseSchema.parse(
      (await call(t, "GET", `/api/payments/checkout-sessions/${sessionId}`, { token })).json(),
    ).data;

  it("a declined card, then a success on the same session: one failed row with Stripe's reason, one paid row, the credits once", async () => {
    const { user, sessionId } = await openCheckout("Declined Then Paid");
    const declined = await fake.failCheckoutAttempt(sessionId);
    const failure = failedEvent(declined);
    expect(await send(failure)).toEqual({ received: true });

    // Nothing granted; the session stays open for another attempt.
    expect(await balanceOf(t, user.token)).toBe(100);
    expect(await sessionView(user.token, sessionId)).toMatchObject({
      status: "open",
      fulfilled: false,
    });
    expect(await history(user.token)).toMatchObject([
      { status: "failed", amount: 5, credits: 40, failureReason: "Your card was declined." },
    ]);

    const done = await fake.completeCheckout(sessionId);
    await send(fake.event("checkout.session.completed", done.session));
    // The failure replayed after the success, and told again as a new event of the same attempt.
    expect(await send(failure)).toEqual({ received: true, duplicate: true });
    await send(failedEvent(declined));

    expect(await balanceOf(t, user.token)).toBe(140);
    const rows = await history(user.token);
    expect(rows).toHaveLength(2);
    const paymentIntent = String(done.session.payment_intent);
    expect(rows.find((row) => row.status === "success")).toMatchObject({
      amount: 5,
      credits: 40,
      stripePaymentId: paymentIntent,
      failureReason: null,
    });
    const failed = await failedForAdmin(user.user.id);
    expect(failed).toMatchObject([
      {
        status: "failed",
        amount: 5,
        credits: 40,
        failureReason: "Your card was declined.",
        // The attempt's own charge, never the payment intent the paid row refunds through.
        stripePaymentId: (declined.last_payment_error as Json).charge,
      },
    ]);
    expect(failed[0]?.stripePaymentId).toMatch(/^ch_/);
    expect(await sessionView(user.token, sessionId)).toMatchObject({
      status: "complete",
      fulfilled: true,
    });
  });

  it("a failure that reaches the app only after the success is still recorded, once", async () => {
    const { user, sessionId } = await openCheckout("Reordered Failure");
    const declined = await fake.failCheckoutAttempt(sessionId, {
      decline_code: "insufficient_funds",
      message: "Your card has insufficient funds.",
    });
    const done = await fake.completeCheckout(sessionId);
    await send(fake.event("checkout.session.completed", done.session));
    for (let delivery = 0; delivery < 3; delivery++) await send(failedEvent(declined));

    expect(await balanceOf(t, user.token)).toBe(140);
    expect(await failedForAdmin(user.user.id)).toMatchObject([
      { failureReason: "Your card has insufficient funds." },
    ]);
    expect(await history(user.token)).toHaveLength(2);
  });

  it("two different failed attempts are two rows, each with its reason; nothing granted", async () => {
    const { user, sessionId } = await openCheckout("Two Declines");
    const first = failedEvent(await fake.failCheckoutAttempt(sessionId));
    const second = failedEvent(
      await fake.failCheckoutAttempt(sessionId, {
        code: "expired_card",
        decline_code: undefined,
        message: "Your card has expired.",
      }),
    );
    // Out of order and replayed.
    for (const event of [second, first, second, first]) await send(event);

    expect(await balanceOf(t, user.token)).toBe(100);
    const reasons = (await failedForAdmin(user.user.id)).map((row) => row.failureReason).sort();
    expect(reasons).toEqual(["Your card has expired.", "Your card was declined."]);
    expect(await history(user.token)).toHaveLength(2);
    // The buyer gave up: the session expires, the two attempts stay.
    await send(fake.event("checkout.session.expired", await fake.expireCheckout(sessionId)));
    expect(await history(user.token)).toHaveLength(2);
  });

  it("a delayed payment that fails is one row with Stripe's reason, whichever of its two events comes first", async () => {
    const reason = "The customer's account has insufficient funds to cover this payment.";
    for (const intentFirst of [true, false]) {
      const { user, sessionId } = await openCheckout(`Delayed ${intentFirst}`);
      const { session, paymentIntent } = await fake.failDelayedPayment(sessionId);
      const events = [
        failedEvent(paymentIntent),
        fake.event("checkout.session.async_payment_failed", session),
      ];
      if (!intentFirst) events.reverse();
      for (const event of [...events, ...events]) await send(event);

      expect(await balanceOf(t, user.token)).toBe(100);
      expect(await history(user.token)).toMatchObject([
        { status: "failed", failureReason: reason, stripePaymentId: paymentIntent.id },
      ]);
      expect(await sessionView(user.token, sessionId)).toMatchObject({
        paymentStatus: "failed",
        fulfilled: false,
      });
    }
  });

  it("a payment intent of no checkout session (a plan's invoice) records nothing: invoice.payment_failed does, once per attempt", async () => {
    const plan = await createPlan(t, admin, { name: "Invoice Failure Plan", price: 8 });
    const user = await signUp(t);
    const checkout = await call(t, "POST", "/api/subscriptions/create-checkout", {
      token: user.token,
      body: { planId: plan._id, consentVersion: CONSENT_VERSIONS.plan },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const done = await fake.completeCheckout((checkout.json() as { sessionId: string }).sessionId);
    for (const event of [
      fake.event("checkout.session.completed", done.session),
      fake.event("invoice.paid", done.invoice as Json),
    ]) {
      await send(event);
    }
    const failure = await fake.failRenewal(String((done.subscription as Json).id));
    // Stripe tells of the invoice's payment intent too; it belongs to no checkout session.
    const invoiceIntent: Json = {
      id: "pi_invoice_attempt_1",
      object: "payment_intent",
      amount: 800,
      currency: "usd",
      status: "requires_payment_method",
      metadata: {},
      last_payment_error: {
        type: "card_error",
        code: "card_declined",
        message: "Your card was declined.",
        charge: "ch_invoice_attempt_1",
      },
    };
    await send(failedEvent(invoiceIntent));
    // As the event carried it: the retry below pays the same invoice (its second attempt).
    const declinedInvoice = structuredClone(failure.invoice);
    await send(fake.event("invoice.payment_failed", declinedInvoice));
    await send(failedEvent(invoiceIntent));

    const failedRows = async () =>
      userTransactionsResponseSchema
        .parse(
          (
            await call(t, "GET", "/api/payments/subscription-history", { token: user.token })
          ).json(),
        )
        .data.filter((row) => row.status === "failed");
    expect(await failedRows()).toHaveLength(1);
    expect(await history(user.token)).toEqual([]);

    // The retry pays; the decline told again late is still the first attempt's one row.
    const retried = await fake.renew(String((done.subscription as Json).id));
    await send(fake.event("invoice.paid", retried.invoice));
    await send(fake.event("invoice.payment_failed", declinedInvoice));
    expect(await failedRows()).toHaveLength(1);
  });
});
