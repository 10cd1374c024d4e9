import { CONSENT_VERSIONS, mySubscriptionResponseSchema } from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPlan } from "../../../../test/billing.ts";
import type { TestApp } from "../../../../test/create-test-app.ts";
import { useStripeSuite } from "../../../../test/stripe-app.ts";
import { deliver } from "../../../../test/stripe-webhooks.ts";
import { payments } from "../../../db/schema/index.ts";

type Json = Record<string, unknown>;
/** Every new account starts with the settings' default credits. */
const START = 100;

/** Free trial days on a plan at Stripe (real SDK against the fake; issue 27 item 4). */
describe("free trials with Stripe", () => {
  let t: TestApp;
  let fake: FakeStripe;
  let admin: string;
  useStripeSuite((suite) => {
    ({ t, fake, admin } = suite);
  });

  const mine = async (token: string) =>
    mySubscriptionResponseSchema.parse(
      (await call(t, "GET", "/api/subscriptions/my-subscription", { token })).json(),
    ).data;
  const paymentRows = async (userId: string) =>
    t.app.database.db.select().from(payments).where(eq(payments.userId, userId));
  /** What the fake charged for a subscription's invoices (a $0 invoice charges nothing). */
  const chargedFor = (subscriptionId: unknown) =>
    [...fake.invoices.values()]
      .filter(
        (invoice) =>
          (invoice.parent as { subscription_details: Json }).subscription_details.subscription ===
            subscriptionId && Number(invoice.amount_paid) > 0,
      )
      .map((invoice) => [invoice.billing_reason, invoice.amount_paid]);

  /** Checkout and its events, the invoice first (Stripe's order is not guaranteed). */
  const subscribe = async (token: string, planId: string) => {
    const checkout = await call(t, "POST", "/api/subscriptions/create-checkout", {
      token,
      body: { planId, consentVersion: CONSENT_VERSIONS.plan },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const { sessionId } = checkout.json() as { sessionId: string };
    const asked = fake.sessions.get(sessionId) as Json;
    const done = await fake.completeCheckout(sessionId);
    for (const event of [
      fake.event("invoice.paid", done.invoice as Json),
      fake.event("customer.subscription.created", done.subscription as Json),
      fake.event("checkout.session.completed", done.session),
    ]) {
      const response = await deliver(t, event);
      expect(response.statusCode, response.body).toBe(200);
    }
    return { asked, subscription: done.subscription as Json, invoice: done.invoice as Json };
  };

  it("trial → active: trial_period_days at checkout, trialing and unpaid, the first charge at trial_end", async () => {
    const plan = await createPlan(t, admin, {
      name: "Stripe Trial",
      price: 10,
      credits: 40,
      trialDays: 14,
    });
    expect(plan.trialDays).toBe(14);
    const user = await signUp(t);
    const { asked, subscription, invoice } = await subscribe(user.token, plan._id);
    expect(asked).toMatchObject({ trial_period_days: 14, amount_total: 0 });
    expect(subscription).toMatchObject({ status: "trialing" });
    expect(invoice).toMatchObject({ billing_reason: "subscription_create", total: 0 });

    const trial = await mine(user.token);
    expect(trial).toMatchObject({ status: "trialing", providerStatus: "trialing" });
    expect(trial.endDate).toBe(new Date(Number(subscription.trial_end) * 1000).toISOString());
    expect(await balanceOf(t, user.token)).toBe(START);
    expect((await paymentRows(user.user.id)).map((row) => row.amountMinor)).toEqual([0]);
    expect(chargedFor(subscription.id)).toEqual([]);

    // The test clock reaches trial_end: the first real invoice is charged.
    const first = await fake.renew(String(subscription.id));
    expect(first.subscription).toMatchObject({ status: "active" });
    await deliver(t, fake.event("invoice.paid", first.invoice));
    await deliver(t, fake.event("customer.subscription.updated", first.subscription));
    expect(await mine(user.token)).toMatchObject({ status: "active", providerStatus: "active" });
    expect(chargedFor(subscription.id)).toEqual([["subscription_cycle", 1000]]);
    expect(await balanceOf(t, user.token)).toBe(START + 40);
    expect(
      (await paymentRows(user.user.id)).map((row) => row.amountMinor).sort((a, b) => a - b),
    ).toEqual([0, 1000]);
  });

  it("trial → canceled: canceled in the trial, it ends without a charge; no second trial", async () => {
    const plan = await createPlan(t, admin, { name: "Stripe Trial 2", price: 10, trialDays: 7 });
    const user = await signUp(t);
    const { subscription } = await subscribe(user.token, plan._id);
    const canceled = await call(t, "POST", "/api/subscriptions/cancel", { token: user.token });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(fake.subscriptions.get(String(subscription.id))).toMatchObject({
      status: "trialing",
      cancel_at_period_end: true,
    });
    expect(await mine(user.token)).toMatchObject({ status: "canceled" });

    const ended = await fake.endSubscription(String(subscription.id));
    await deliver(t, fake.event("customer.subscription.deleted", ended));
    expect(await mine(user.token)).toMatchObject({ status: "inactive" });
    expect(chargedFor(subscription.id)).toEqual([]);
    expect(await balanceOf(t, user.token)).toBe(START);

    // One trial per fan, ever: the next checkout charges at once.
    const again = await subscribe(user.token, plan._id);
    expect(again.asked).toMatchObject({ trial_period_days: null, amount_total: 1000 });
    expect(again.subscription).toMatchObject({ status: "active" });
    expect(chargedFor(again.subscription.id)).toEqual([["subscription_create", 1000]]);
    expect(await mine(user.token)).toMatchObject({ status: "active" });
  });
});
