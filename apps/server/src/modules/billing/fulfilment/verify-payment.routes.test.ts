import {
  adminSubscriptionHistoryResponseSchema,
  adminSubscriptionTransactionsResponseSchema,
  CONSENT_VERSIONS,
  userTransactionsResponseSchema,
} from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { describe, expect, it } from "vitest";
import { call, signUp } from "../../../../test/accounts.ts";
import { adminCreditRows, balanceOf, createPackage, createPlan } from "../../../../test/billing.ts";
import type { TestApp } from "../../../../test/create-test-app.ts";
import { createManualClock, type ManualClock } from "../../../../test/manual-clock.ts";
import { useStripeSuite } from "../../../../test/stripe-app.ts";
import { deliver } from "../../../../test/stripe-webhooks.ts";
import { CHECKOUT_SWEEP_AFTER_MS } from "../checkout/checkout-sweep.ts";

type Json = Record<string, unknown>;

describe("what was paid is what was sold (real Stripe SDK against the local Stripe)", () => {
  let t: TestApp;
  let fake: FakeStripe;
  let admin: string;
  // Made in the hook: the clock starts at the app's start, as the fake Stripe's times do.
  let clock: ManualClock;
  useStripeSuite(
    (suite) => {
      ({ t, fake, admin } = suite);
    },
    () => {
      // Behind the wall clock, as on a loaded machine whose earlier tests took minutes: the
      // sweep must read a session's age on the clock that wrote it (CI failed on this).
      clock = createManualClock(Date.now() - 180_000);
      return { billingClock: clock };
    },
  );

  const checkout = async (token: string, path: string, body: object) => {
    const response = await call(t, "POST", path, { token, body });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { sessionId: string };
  };
  const userRows = async (token: string, path: string) =>
    userTransactionsResponseSchema.parse((await call(t, "GET", path, { token })).json()).data;
  const adminSubscriptionRows = async (userId: string) =>
    adminSubscriptionTransactionsResponseSchema.parse(
      (
        await call(t, "GET", "/api/admin/subscription-transactions", {
          token: admin,
          query: { userId },
        })
      ).json(),
    ).data;
  const historyOf = async (userId: string) =>
    adminSubscriptionHistoryResponseSchema.parse(
      (
        await call(t, "GET", "/api/admin/subscription-history", { token: admin, query: { userId } })
      ).json(),
    ).data;

  /** A package session paid at Stripe with `tamper` applied to what Stripe reports. */
  const payTampered = async (tamper: (session: Json) => void) => {
    const pack = await createPackage(t, admin, {
      name: "Verified Pack",
      credits: 200,
      price: 10,
      discount: 10,
    });
    const user = await signUp(t);
    const { sessionId } = await checkout(user.token, "/api/payments/create-checkout-session", {
      packageId: pack._id,
      consentVersion: CONSENT_VERSIONS.credits,
    });
    const done = await fake.completeCheckout(sessionId);
    tamper(done.session);
    const event = fake.event("checkout.session.completed", done.session);
    expect((await deliver(t, event)).statusCode).toBe(200);
    expect((await deliver(t, event)).statusCode).toBe(200);
    return { user, sessionId };
  };

  it("the discounted price paid in the package's currency grants the credits, at the amount paid", async () => {
    const { user } = await payTampered(() => {});
    expect(await balanceOf(t, user.token)).toBe(300);
    const rows = await userRows(user.token, "/api/payments/history");
    expect(rows).toMatchObject([
      { status: "success", amount: 9, currency: "usd", failureReason: null },
    ]);
  });

  it("one cent for the package: nothing granted, a failed row with the reason for the admin", async () => {
    const { user, sessionId } = await payTampered((session) => {
      session.amount_total = 1;
    });
    expect(await balanceOf(t, user.token)).toBe(100);
    const admin_ = await adminCreditRows(t, admin, { userId: user.user.id });
    expect(admin_.data).toMatchObject([
      {
        status: "failed",
        amount: 0.01,
        currency: "usd",
        failureReason: "Paid 0.01 USD for a sale of 9.00 USD: nothing granted",
      },
    ]);
    const failedOnly = await adminCreditRows(t, admin, { userId: user.user.id, status: "failed" });
    expect(failedOnly.pagination.total).toBe(1);
    expect(await userRows(user.token, "/api/payments/history")).toMatchObject([
      { status: "failed", amount: 0.01 },
    ]);
    const view = await call(t, "GET", `/api/payments/checkout-sessions/${sessionId}`, {
      token: user.token,
    });
    expect(view.json().data).toMatchObject({ paymentStatus: "failed", fulfilled: false });
  });

  it("more than the price for the package: refused as well, never granted as a sale", async () => {
    const { user } = await payTampered((session) => {
      session.amount_total = 1500;
    });
    expect(await balanceOf(t, user.token)).toBe(100);
    const rows = await adminCreditRows(t, admin, { userId: user.user.id });
    expect(rows.data).toMatchObject([
      {
        status: "failed",
        amount: 15,
        currency: "usd",
        failureReason: "Paid 15.00 USD for a sale of 9.00 USD: nothing granted",
      },
    ]);
  });

  it("nothing paid is recorded as 0.00, never as the price; INR for a USD sale is recorded as INR", async () => {
    const zero = await payTampered((session) => {
      session.amount_total = 0;
    });
    expect(await balanceOf(t, zero.user.token)).toBe(100);
    expect(await userRows(zero.user.token, "/api/payments/history")).toMatchObject([
      { status: "failed", amount: 0, currency: "usd" },
    ]);

    const rupees = await payTampered((session) => {
      session.currency = "inr";
    });
    expect(await balanceOf(t, rupees.user.token)).toBe(100);
    const rows = await adminCreditRows(t, admin, { userId: rupees.user.user.id });
    expect(rows.data).toMatchObject([
      {
        status: "failed",
        amount: 9,
        currency: "inr",
        failureReason: "Paid 9.00 INR for a sale of 9.00 USD: nothing granted",
      },
    ]);
    // Revenue counts what was paid and succeeded only: neither failed row.
    const revenue = await call(t, "GET", "/api/admin/revenue", {
      token: admin,
      query: { kind: "credits" },
    });
    expect(revenue.statusCode).toBe(200);
  });

  // More than the price is refused too: a sale is what was sold, not a floor.
  it.each([
    // The fake's charge stays the plan's price (only the invoice event says otherwise), so the
    // automatic refund of the whole amount is checked where the event claims less.
    { what: "less", paidMinor: 199, refundedMinor: 199 },
    { what: "more", paidMinor: 2999, refundedMinor: undefined },
  ])(
    "a plan's first invoice for $what than the plan: no plan, no credits, a failed row, the money back",
    async ({ paidMinor, refundedMinor }) => {
      const paid = (paidMinor / 100).toFixed(2);
      const plan = await createPlan(t, admin, {
        name: "Verified Plan",
        price: 19.99,
        credits: 500,
      });
      const user = await signUp(t);
      const { sessionId } = await checkout(user.token, "/api/subscriptions/create-checkout", {
        planId: plan._id,
        consentVersion: CONSENT_VERSIONS.plan,
      });
      const done = await fake.completeCheckout(sessionId);
      const invoice = done.invoice as Json;
      invoice.amount_paid = paidMinor;
      invoice.total = paidMinor;
      for (const event of [
        fake.event("checkout.session.completed", done.session),
        fake.event("invoice.paid", invoice),
        fake.event("invoice.paid", invoice),
      ]) {
        expect((await deliver(t, event)).statusCode).toBe(200);
      }
      expect(await balanceOf(t, user.token)).toBe(100);
      const view = await call(t, "GET", `/api/payments/checkout-sessions/${sessionId}`, {
        token: user.token,
      });
      expect(view.json().data).toMatchObject({ paymentStatus: "failed", fulfilled: false });
      expect(await adminSubscriptionRows(user.user.id)).toMatchObject([
        {
          status: "failed",
          amount: paidMinor / 100,
          credits: 0,
          failureReason: `Paid ${paid} USD for a sale of 19.99 USD: nothing granted`,
          // Given back automatically; the row keeps its status and reason.
          ...(refundedMinor === undefined ? {} : { refundedAmount: refundedMinor / 100 }),
        },
      ]);
      // No plan in force, on every screen's one rule: ended at Stripe and here.
      const mine = await call(t, "GET", "/api/subscriptions/my-subscription", {
        token: user.token,
      });
      expect(mine.json().data).toMatchObject({ status: "inactive" });
      const events = (await historyOf(user.user.id)).map((event) => event.eventType);
      expect(events).toEqual(expect.arrayContaining(["created", "canceled"]));
      // A later event about the same subscription does not put it back in force.
      const stillActive = fake.event("customer.subscription.updated", done.subscription as Json);
      expect((await deliver(t, stillActive)).statusCode).toBe(200);
      const after = await call(t, "GET", "/api/subscriptions/my-subscription", {
        token: user.token,
      });
      expect(after.json().data).toMatchObject({ status: "inactive" });
    },
  );

  it("a plan's asynchronous payment that fails: a failed row and a payment_failed history event", async () => {
    const plan = await createPlan(t, admin, { name: "Async Plan", price: 5 });
    const user = await signUp(t);
    const { sessionId } = await checkout(user.token, "/api/subscriptions/create-checkout", {
      planId: plan._id,
      consentVersion: CONSENT_VERSIONS.plan,
    });
    const session = fake.sessions.get(sessionId) as Json;
    session.status = "complete";
    session.payment_status = "unpaid";
    const event = fake.event("checkout.session.async_payment_failed", session);
    await deliver(t, event);
    await deliver(t, event);
    expect(await userRows(user.token, "/api/payments/subscription-history")).toMatchObject([
      { status: "failed", amount: 5, planName: "Async Plan", failureReason: "The payment failed" },
    ]);
    expect(await adminSubscriptionRows(user.user.id)).toMatchObject([{ status: "failed" }]);
    expect(await historyOf(user.user.id)).toMatchObject([
      { eventType: "payment_failed", status: "incomplete", amount: 5 },
    ]);
  });

  it("a session paid at Stripe whose webhook never came is credited by the sweep, once", async () => {
    const pack = await createPackage(t, admin, { name: "Swept Pack", credits: 70, price: 3 });
    const user = await signUp(t);
    const { sessionId } = await checkout(user.token, "/api/payments/create-checkout-session", {
      packageId: pack._id,
      consentVersion: CONSENT_VERSIONS.credits,
    });
    await fake.completeCheckout(sessionId);
    // Before the few minutes are up the sweep leaves it to the webhook.
    await clock.advance(CHECKOUT_SWEEP_AFTER_MS - 60_000);
    expect(await balanceOf(t, user.token)).toBe(100);
    await clock.advance(2 * 60_000);
    expect(await balanceOf(t, user.token)).toBe(170);
    await clock.advance(10 * 60_000);
    expect(await t.app.billing.sweep.sweep()).toMatchObject({ completed: 0 });
    expect(await balanceOf(t, user.token)).toBe(170);
    // The webhook arriving late changes nothing either.
    const late = fake.event("checkout.session.completed", fake.sessions.get(sessionId) as Json);
    expect((await deliver(t, late)).statusCode).toBe(200);
    expect(await balanceOf(t, user.token)).toBe(170);
    expect((await adminCreditRows(t, admin, { userId: user.user.id })).data).toHaveLength(1);
  });

  it("a session expired at Stripe is closed by the sweep", async () => {
    const pack = await createPackage(t, admin, { name: "Expiring Pack", credits: 5, price: 1 });
    const user = await signUp(t);
    const { sessionId } = await checkout(user.token, "/api/payments/create-checkout-session", {
      packageId: pack._id,
      consentVersion: CONSENT_VERSIONS.credits,
    });
    await fake.expireCheckout(sessionId);
    await clock.advance(CHECKOUT_SWEEP_AFTER_MS + 60_000);
    const view = await call(t, "GET", `/api/payments/checkout-sessions/${sessionId}`, {
      token: user.token,
    });
    expect(view.json().data).toMatchObject({ status: "expired", fulfilled: false });
  });
});
