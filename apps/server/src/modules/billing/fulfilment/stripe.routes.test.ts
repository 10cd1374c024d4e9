import {
  BILLING_MESSAGES,
  CONSENT_VERSIONS,
  mySubscriptionResponseSchema,
  planChangeResultSchema,
} from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, messageOf, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPackage, createPlan } from "../../../../test/billing.ts";
import type { TestApp } from "../../../../test/create-test-app.ts";
import { useStripeSuite } from "../../../../test/stripe-app.ts";
import { deliver, signEvent } from "../../../../test/stripe-webhooks.ts";
import {
  creditLedger,
  creditPackages,
  payments,
  processedWebhookEvents,
  subscriptionEvents,
  subscriptionPlans,
  userSubscriptions,
} from "../../../db/schema/index.ts";

type Json = Record<string, unknown>;

describe("billing with Stripe (real SDK against a local Stripe)", () => {
  let t: TestApp;
  let fake: FakeStripe;
  let admin: string;
  useStripeSuite((suite) => {
    ({ t, fake, admin } = suite);
  });

  const db = () => t.app.database.db;

  const checkoutPackage = async (token: string, packageId: string) => {
    const response = await call(t, "POST", "/api/payments/create-checkout-session", {
      token,
      body: { packageId, consentVersion: CONSENT_VERSIONS.credits },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { url: string; sessionId: string };
  };

  const checkoutPlan = async (token: string, planId: string) => {
    const response = await call(t, "POST", "/api/subscriptions/create-checkout", {
      token,
      body: { planId, consentVersion: CONSENT_VERSIONS.plan },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { url: string; sessionId: string };
  };

  const ledgerRows = async (userId: string) =>
    (
      await db()
        .select({ n: count() })
        .from(creditLedger)
        .where(and(eq(creditLedger.userId, userId), eq(creditLedger.kind, "purchase")))
    )[0]?.n;

  const paymentRows = async (userId: string) =>
    db().select().from(payments).where(eq(payments.userId, userId));

  /** A user subscribed through Stripe Checkout, events delivered in Stripe's order. */
  const subscribe = async (token: string, planId: string) => {
    const { sessionId } = await checkoutPlan(token, planId);
    const done = await fake.completeCheckout(sessionId);
    for (const event of [
      fake.event("checkout.session.completed", done.session),
      fake.event("customer.subscription.created", done.subscription as Json),
      fake.event("invoice.paid", done.invoice as Json),
    ]) {
      expect((await deliver(t, event)).statusCode).toBe(200);
    }
    return { sessionId, subscription: done.subscription as Json };
  };

  it("makes a Stripe product and price per package; a new price is a new Price, the old kept", async () => {
    const pack = await createPackage(t, admin, { name: "Stripe Pack", price: 10, discount: 10 });
    expect(pack.stripeProductId).toMatch(/^prod_/);
    expect(pack.stripePriceId).toMatch(/^price_/);
    const product = fake.products.get(pack.stripeProductId ?? "");
    expect(product).toMatchObject({ name: "Stripe Pack", active: true });
    // The Price charges the discounted amount.
    expect(fake.prices.get(pack.stripePriceId ?? "")).toMatchObject({
      unit_amount: 900,
      currency: "usd",
    });

    const updated = await call(t, "PUT", `/api/credit-packages/${pack._id}`, {
      token: admin,
      body: { name: "Stripe Pack Plus", price: 20 },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const after = updated.json().data;
    expect(after.stripeProductId).toBe(pack.stripeProductId);
    expect(after.stripePriceId).not.toBe(pack.stripePriceId);
    expect(fake.prices.get(after.stripePriceId)).toMatchObject({ unit_amount: 1800, active: true });
    expect(fake.prices.get(pack.stripePriceId ?? "")).toMatchObject({ active: false });
    expect(product).toMatchObject({ name: "Stripe Pack Plus" });

    // Only the name changes: no new price.
    const renamed = await call(t, "PUT", `/api/credit-packages/${pack._id}`, {
      token: admin,
      body: { name: "Stripe Pack Max" },
    });
    expect(renamed.json().data.stripePriceId).toBe(after.stripePriceId);

    const deleted = await call(t, "DELETE", `/api/credit-packages/${pack._id}`, { token: admin });
    expect(deleted.statusCode).toBe(200);
    expect(product).toMatchObject({ active: false });
  });

  it("keeps subscribers on their price when the plan's price changes; interval is fixed", async () => {
    const plan = await createPlan(t, admin, { name: "Stripe Monthly", price: 12 });
    expect(fake.prices.get(plan.stripePriceId ?? "")).toMatchObject({
      unit_amount: 1200,
      recurring: { interval: "month", interval_count: 1 },
    });
    const user = await signUp(t);
    const { subscription } = await subscribe(user.token, plan._id);

    const updated = await call(t, "PUT", `/api/subscriptions/${plan._id}`, {
      token: admin,
      body: { name: "Stripe Monthly", price: 15, interval: "month", intervalCount: 1 },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const newPriceId = updated.json().data.stripePriceId;
    expect(newPriceId).not.toBe(plan.stripePriceId);
    expect(fake.prices.get(newPriceId)).toMatchObject({ unit_amount: 1500 });
    // The subscriber is still on the old Price, and pays what they paid.
    const item = ((subscription.items as Json).data as Json[])[0] as Json;
    expect((item.price as Json).id).toBe(plan.stripePriceId);
    const mine = mySubscriptionResponseSchema.parse(
      (await call(t, "GET", "/api/subscriptions/my-subscription", { token: user.token })).json(),
    ).data;
    expect(mine).toMatchObject({ status: "active", price: 12, plan: { price: 15 } });

    const interval = await call(t, "PUT", `/api/subscriptions/${plan._id}`, {
      token: admin,
      body: { name: "Stripe Monthly", intervalCount: 3 },
    });
    expect(interval.statusCode).toBe(400);
    expect(messageOf(interval)).toBe(BILLING_MESSAGES.intervalFixed);

    const deleted = await call(t, "DELETE", `/api/subscriptions/${plan._id}`, { token: admin });
    expect(deleted.statusCode).toBe(200);
    expect(fake.products.get(plan.stripeProductId ?? "")).toMatchObject({ active: false });
    // The subscription keeps working.
    const still = (
      await call(t, "GET", "/api/subscriptions/my-subscription", { token: user.token })
    ).json();
    expect(still.data.status).toBe("active");
  });

  it("sync-stripe reconciles both ways", async () => {
    // A local row without Stripe objects, one whose product vanished, and an orphan product.
    const [local] = await db()
      .insert(creditPackages)
      .values({ name: "Unsynced", credits: 10, priceMinor: 100, currency: "eur" })
      .returning();
    const lost = await createPackage(t, admin, { name: "Lost" });
    fake.products.delete(lost.stripeProductId ?? "");
    // A product this app made once, whose row is gone (metadata names a row that is not there).
    const orphanId = "prod_orphan_from_an_old_database";
    fake.products.set(orphanId, {
      id: orphanId,
      object: "product",
      name: "Orphan",
      active: true,
      metadata: { twinline_kind: "package", twinline_id: "00000000-0000-4000-8000-000000000000" },
    });

    const sync = await call(t, "POST", "/api/credit-packages/sync-stripe", { token: admin });
    expect(sync.statusCode, sync.body).toBe(200);
    expect(sync.json()).toMatchObject({
      success: true,
      mode: "stripe",
      message: BILLING_MESSAGES.packagesSynced,
      created: 2,
      deactivated: 1,
    });
    const listed = (await call(t, "GET", "/api/credit-packages", { token: admin })).json()
      .data as Json[];
    const unsynced = listed.find((p) => p._id === local?.id) as Json;
    expect(unsynced.stripeProductId).toMatch(/^prod_/);
    expect(fake.prices.get(String(unsynced.stripePriceId))).toMatchObject({
      unit_amount: 100,
      currency: "eur",
    });
    expect(fake.products.get(orphanId)).toMatchObject({ active: false });
    // A second sync has nothing to do.
    const again = (
      await call(t, "POST", "/api/credit-packages/sync-stripe", { token: admin })
    ).json();
    expect(again).toMatchObject({ created: 0, updated: 0, deactivated: 0 });
  });

  it("sync-stripe makes products and recurring prices for plans without them", async () => {
    const [local] = await db()
      .insert(subscriptionPlans)
      .values({ name: "Unsynced Plan", priceMinor: 2500, interval: "year", intervalCount: 1 })
      .returning();
    const sync = await call(t, "POST", "/api/subscriptions/sync-stripe", { token: admin });
    expect(sync.statusCode, sync.body).toBe(200);
    expect(sync.json()).toMatchObject({ mode: "stripe", message: BILLING_MESSAGES.plansSynced });
    expect(sync.json().created).toBeGreaterThanOrEqual(1);
    const plans = (await call(t, "GET", "/api/subscriptions", { token: admin })).json()
      .data as Json[];
    const synced = plans.find((p) => p._id === local?.id) as Json;
    expect(fake.prices.get(String(synced.stripePriceId))).toMatchObject({
      unit_amount: 2500,
      recurring: { interval: "year", interval_count: 1 },
    });
  });

  it("an asynchronous payment that fails records a failed purchase and grants nothing", async () => {
    const pack = await createPackage(t, admin, { name: "Async Pack", credits: 15 });
    const user = await signUp(t);
    const { sessionId } = await checkoutPackage(user.token, pack._id);
    const session = fake.sessions.get(sessionId) as Json;
    session.status = "complete";
    session.payment_status = "unpaid";
    await deliver(t, fake.event("checkout.session.async_payment_failed", session));
    expect(await balanceOf(t, user.token)).toBe(100);
    const history = (await call(t, "GET", "/api/payments/history", { token: user.token })).json();
    expect(history.transactions).toMatchObject([{ status: "failed", credits: 15 }]);
  });

  it("checkout: a Stripe Checkout URL; credits only on the webhook, exactly once over 100 replays and 20 at once", async () => {
    const pack = await createPackage(t, admin, { name: "Replay Pack", credits: 300, price: 5 });
    const user = await signUp(t);
    const { url, sessionId } = await checkoutPackage(user.token, pack._id);
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const session = fake.sessions.get(sessionId) as Json;
    expect(session).toMatchObject({
      mode: "payment",
      client_reference_id: user.user.id,
      success_url:
        "https://twinline.example/dashboard/credits?checkout=success&session_id={CHECKOUT_SESSION_ID}",
      price_id: pack.stripePriceId,
    });
    // The return page before the webhook: nothing granted.
    const early = (
      await call(t, "GET", `/api/payments/checkout-sessions/${sessionId}`, { token: user.token })
    ).json();
    expect(early.data).toMatchObject({ status: "open", fulfilled: false });
    expect(await balanceOf(t, user.token)).toBe(100);

    const done = await fake.completeCheckout(sessionId);
    const event = fake.event("checkout.session.completed", done.session);
    for (let i = 0; i < 100; i++) {
      const response = await deliver(t, event);
      expect(response.statusCode, response.body).toBe(200);
      if (i > 0) expect(response.json()).toEqual({ received: true, duplicate: true });
    }
    expect(await balanceOf(t, user.token)).toBe(400);
    // The async-success event of the same session changes nothing more either.
    await deliver(t, fake.event("checkout.session.async_payment_succeeded", done.session));
    expect(await balanceOf(t, user.token)).toBe(400);
    expect(await ledgerRows(user.user.id)).toBe(1);

    // 20 deliveries at once, of one event, on a fresh session; and 20 distinct events at once.
    const second = await checkoutPackage(user.token, pack._id);
    const paid = await fake.completeCheckout(second.sessionId);
    const once = fake.event("checkout.session.completed", paid.session);
    const results = await Promise.all(Array.from({ length: 20 }, () => deliver(t, once)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const third = await checkoutPackage(user.token, pack._id);
    const paid3 = await fake.completeCheckout(third.sessionId);
    const distinct = await Promise.all(
      Array.from({ length: 20 }, () =>
        deliver(t, fake.event("checkout.session.completed", paid3.session)),
      ),
    );
    expect(distinct.every((r) => r.statusCode === 200)).toBe(true);
    expect(await balanceOf(t, user.token)).toBe(1000);
    expect(await ledgerRows(user.user.id)).toBe(3);
    expect((await paymentRows(user.user.id)).filter((p) => p.status === "success")).toHaveLength(3);

    const view = (
      await call(t, "GET", `/api/payments/checkout-sessions/${sessionId}`, { token: user.token })
    ).json();
    expect(view.data).toMatchObject({ status: "complete", fulfilled: true, credits: 300 });
  });

  it("refuses a bad signature (400) and needs no CSRF token", async () => {
    const event = fake.event("checkout.session.completed", {
      id: "cs_test_x",
      object: "checkout.session",
    });
    const wrong = await deliver(t, event, "whsec_someone_else");
    expect(wrong.statusCode).toBe(400);
    expect(messageOf(wrong)).toBe(BILLING_MESSAGES.invalidSignature);
    const { payload } = signEvent(event);
    const unsigned = await t.app.inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: { "content-type": "application/json" },
      payload,
    });
    expect(unsigned.statusCode).toBe(400);
    // A body changed after signing.
    const { header } = signEvent(event);
    const tampered = await t.app.inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: { "content-type": "application/json", "stripe-signature": header },
      payload: payload.replace("cs_test_x", "cs_test_y"),
    });
    expect(tampered.statusCode).toBe(400);
    const [recorded] = await db()
      .select({ n: count() })
      .from(processedWebhookEvents)
      .where(eq(processedWebhookEvents.eventId, String(event.id)));
    expect(recorded?.n).toBe(0);
  });

  it("refuses a signature dated outside 5 minutes either way, accepts one a minute off", async () => {
    const event = fake.event("checkout.session.completed", {
      id: "cs_test_dated",
      object: "checkout.session",
    });
    const now = Math.floor(Date.now() / 1000);
    const dated = (timestamp: number) => {
      const { payload, header } = signEvent(event, undefined, timestamp);
      return t.app.inject({
        method: "POST",
        url: "/api/payments/webhook",
        headers: { "content-type": "application/json", "stripe-signature": header },
        payload,
      });
    };
    for (const timestamp of [now + 86_400, now + 301 + 5, now - 86_400]) {
      const response = await dated(timestamp);
      expect(response.statusCode, String(timestamp - now)).toBe(400);
      expect(messageOf(response)).toBe(BILLING_MESSAGES.invalidSignature);
    }
    const [recorded] = await db()
      .select({ n: count() })
      .from(processedWebhookEvents)
      .where(eq(processedWebhookEvents.eventId, String(event.id)));
    expect(recorded?.n).toBe(0);
    // A minute of clock difference either way is fine.
    expect((await dated(now + 60)).statusCode).not.toBe(400);
    expect((await dated(now - 60)).statusCode).not.toBe(400);
  });

  it("a fulfilment that fails half-way leaves nothing; the retry applies it once", async () => {
    const pack = await createPackage(t, admin, { name: "Crash Pack", credits: 70, price: 3 });
    const user = await signUp(t);
    const { sessionId } = await checkoutPackage(user.token, pack._id);
    const event = fake.event(
      "checkout.session.completed",
      (await fake.completeCheckout(sessionId)).session,
    );
    t.app.billing.fulfilment.state.probe = (step) => {
      if (step === "credits-granted") throw new Error("killed half-way");
    };
    try {
      const failed = await deliver(t, event);
      expect(failed.statusCode).toBe(500);
    } finally {
      t.app.billing.fulfilment.state.probe = null;
    }
    expect(await balanceOf(t, user.token)).toBe(100);
    expect(await paymentRows(user.user.id)).toHaveLength(0);
    const retried = await deliver(t, event);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ received: true });
    await deliver(t, event);
    expect(await balanceOf(t, user.token)).toBe(170);
    expect(await ledgerRows(user.user.id)).toBe(1);
  });

  it("handles subscription events out of order, renewals with plan credits, failed payments and the end", async () => {
    const plan = await createPlan(t, admin, { name: "Credits Plan", price: 8, credits: 40 });
    const user = await signUp(t);
    const { sessionId } = await checkoutPlan(user.token, plan._id);
    const done = await fake.completeCheckout(sessionId);
    const subscription = done.subscription as Json;
    // Stripe's order reversed: the invoice first, updated before created, checkout last.
    for (const event of [
      fake.event("invoice.paid", done.invoice as Json),
      fake.event("customer.subscription.updated", subscription),
      fake.event("customer.subscription.created", subscription),
      fake.event("checkout.session.completed", done.session),
    ]) {
      const response = await deliver(t, event);
      expect(response.statusCode, response.body).toBe(200);
    }
    const rows = await db()
      .select()
      .from(userSubscriptions)
      .where(eq(userSubscriptions.userId, user.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "active", providerSubscriptionId: subscription.id });
    expect(await balanceOf(t, user.token)).toBe(140);
    expect((await paymentRows(user.user.id)).map((p) => [p.kind, p.amountMinor])).toEqual([
      ["subscription", 800],
    ]);
    const view = (
      await call(t, "GET", `/api/payments/checkout-sessions/${sessionId}`, { token: user.token })
    ).json();
    expect(view.data.fulfilled).toBe(true);

    // A renewal: the plan's credits again, a payment, a "renewed" event.
    const renewal = await fake.renew(String(subscription.id));
    const renewed = fake.event("invoice.paid", renewal.invoice);
    await deliver(t, renewed);
    await deliver(t, renewed);
    expect(await balanceOf(t, user.token)).toBe(180);
    // A failed renewal: past due, a failed payment, a payment_failed event; still in force.
    const failure = await fake.failRenewal(String(subscription.id));
    await deliver(t, fake.event("invoice.payment_failed", failure.invoice));
    const mine = (
      await call(t, "GET", "/api/subscriptions/my-subscription", { token: user.token })
    ).json();
    expect(mine.data).toMatchObject({ status: "active", providerStatus: "past_due" });
    // The end.
    const ended = await fake.endSubscription(String(subscription.id));
    await deliver(t, fake.event("customer.subscription.deleted", ended));
    const after = (
      await call(t, "GET", "/api/subscriptions/my-subscription", { token: user.token })
    ).json();
    expect(after.data.status).toBe("inactive");

    const events = await db()
      .select({ type: subscriptionEvents.eventType, status: subscriptionEvents.status })
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.userId, user.user.id));
    expect(events.map((e) => e.type).sort()).toEqual([
      "canceled",
      "created",
      "payment_failed",
      "renewed",
    ]);
    const history = (
      await call(t, "GET", "/api/payments/subscription-history", { token: user.token })
    ).json();
    expect(history.transactions.map((p: Json) => p.status)).toEqual([
      "failed",
      "success",
      "success",
    ]);
  });

  it("changes plan with the proration invoiced at once and cancels at period end", async () => {
    const small = await createPlan(t, admin, { name: "Small", price: 10 });
    const large = await createPlan(t, admin, { name: "Large", price: 40 });
    const user = await signUp(t);
    const { subscription } = await subscribe(user.token, small._id);
    const changed = await call(t, "POST", "/api/subscriptions/upgrade", {
      token: user.token,
      body: { planId: large._id },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const result = planChangeResultSchema.parse(changed.json());
    expect(result.subscription).toMatchObject({
      change: "upgrade",
      currency: "usd",
      plan: { name: "Large" },
    });
    expect(result.subscription.proratedAmount).toBeGreaterThan(29);
    // One update, with an idempotency key; the amount answered is what the invoice charged.
    const update = fake.requests.find(
      (r) =>
        r.method === "POST" &&
        r.path === `/v1/subscriptions/${subscription.id}` &&
        r.body.toString().includes("proration_behavior"),
    );
    expect(String(update?.headers["idempotency-key"])).toMatch(/^plan-change:/);
    const charged = fake.invoices.get(String(subscription.latest_invoice)) as Json;
    expect(result.subscription.proratedAmount).toBe(Number(charged.amount_paid) / 100);
    const item = ((subscription.items as Json).data as Json[])[0] as Json;
    expect((item.price as Json).id).toBe(large.stripePriceId);
    // The webhooks that follow change nothing more.
    await deliver(t, fake.event("customer.subscription.updated", subscription));
    const invoice = fake.invoices.get(String(subscription.latest_invoice)) as Json;
    await deliver(t, fake.event("invoice.paid", invoice));
    await deliver(t, fake.event("invoice.paid", invoice));
    const paid = (await paymentRows(user.user.id)).filter((p) => p.kind === "subscription");
    expect(paid).toHaveLength(2);

    const canceled = await call(t, "POST", "/api/subscriptions/cancel", { token: user.token });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(subscription.cancel_at_period_end).toBe(true);
    expect(canceled.json().subscription).toMatchObject({
      status: "canceled",
      cancelAtPeriodEnd: true,
    });
  });

  it("an expired session is shown expired and grants nothing", async () => {
    const pack = await createPackage(t, admin, { name: "Expiry Pack" });
    const user = await signUp(t);
    const { sessionId } = await checkoutPackage(user.token, pack._id);
    await deliver(t, fake.event("checkout.session.expired", await fake.expireCheckout(sessionId)));
    const view = (
      await call(t, "GET", `/api/payments/checkout-sessions/${sessionId}`, { token: user.token })
    ).json();
    expect(view.data).toMatchObject({ status: "expired", fulfilled: false });
    expect(await balanceOf(t, user.token)).toBe(100);
  });
});
