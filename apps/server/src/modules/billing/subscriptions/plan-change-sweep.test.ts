import { fileURLToPath } from "node:url";
import {
  CONSENT_VERSIONS,
  mySubscriptionResponseSchema,
  planChangeResultSchema,
  userTransactionsResponseSchema,
} from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPlan, sandboxBuy } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { createManualClock } from "../../../../test/manual-clock.ts";
import { runUntilKilled } from "../../../../test/run-until-killed.ts";
import { useStripeSuite } from "../../../../test/stripe-app.ts";
import { deliver } from "../../../../test/stripe-webhooks.ts";
import { PLAN_CHANGE_LEASE_SECONDS } from "./plan-change-claims.ts";
import { PLAN_CHANGE_SWEEP_EVERY_MS } from "./plan-change-sweep.ts";

type Json = Record<string, unknown>;
const CHILD = fileURLToPath(new URL("../../../../test/kill-mid-upgrade.child.ts", import.meta.url));
/** Every new account starts with the settings' default credits. */
const START = 100;
/** Long enough for a claim to be stale and the sweep's timer to run. */
const PAST_THE_LEASE = PLAN_CHANGE_LEASE_SECONDS * 1000 + PLAN_CHANGE_SWEEP_EVERY_MS + 1000;

/** A crash thrown by a probe: nothing after it runs, as if the process had died there. */
class Crash extends Error {}

const mine = async (t: TestApp, token: string) =>
  mySubscriptionResponseSchema.parse(
    (await call(t, "GET", "/api/subscriptions/my-subscription", { token })).json(),
  ).data;
const subscriptionPayments = async (t: TestApp, token: string) =>
  userTransactionsResponseSchema.parse(
    (
      await call(t, "GET", "/api/payments/subscription-history", {
        token,
        query: { limit: "50" },
      })
    ).json(),
  ).transactions;
const planChangeRows = async (t: TestApp, token: string) =>
  (await subscriptionPayments(t, token)).filter((row) => row.planName?.includes("plan change"));
const changeTo = (t: TestApp, token: string, planId: string) =>
  call(t, "POST", "/api/subscriptions/upgrade", { token, body: { planId } });

describe("a plan change that crashes half-way is settled by the sweep, once (sandbox)", () => {
  const clock = createManualClock();
  let t: TestApp;
  let fan: Awaited<ReturnType<typeof createPlan>>;
  let superfan: Awaited<ReturnType<typeof createPlan>>;

  beforeAll(async () => {
    t = await createTestApp({
      billingClock: clock,
      env: { PUBLIC_URL: "https://twinline.example" },
    });
    const admin = (await adminSession(t)).token;
    fan = await createPlan(t, admin, { name: "Fan", price: 10, credits: 50 });
    superfan = await createPlan(t, admin, { name: "Superfan", price: 20, credits: 120 });
  });
  afterAll(async () => {
    await t?.close();
  });

  const subscribedFan = async () => {
    const user = await signUp(t);
    const { paid } = await sandboxBuy(t, user.token, { planId: fan._id });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await balanceOf(t, user.token)).toBe(START + 50);
    return user;
  };

  it("dead after the claim, before the provider: the sweep releases it; nothing was charged", async () => {
    const user = await subscribedFan();
    t.app.billing.subscriptions.state.probe = (step) => {
      if (step === "claimed") throw new Crash("died after the claim");
    };
    try {
      expect((await changeTo(t, user.token, superfan._id)).statusCode).toBe(500);
    } finally {
      t.app.billing.subscriptions.state.probe = null;
    }
    await clock.advance(PAST_THE_LEASE);
    expect((await mine(t, user.token)).plan?._id).toBe(fan._id);
    expect(await planChangeRows(t, user.token)).toEqual([]);
    expect(await balanceOf(t, user.token)).toBe(START + 50);
    // The claim is gone: the fan can change plan again, and is charged once.
    const again = await changeTo(t, user.token, superfan._id);
    expect(again.statusCode, again.body).toBe(200);
    expect(await planChangeRows(t, user.token)).toHaveLength(1);
    expect(await balanceOf(t, user.token)).toBe(START + 120);
  });

  it("dead after the provider charged, before anything was recorded: the sweep records it once", async () => {
    const user = await subscribedFan();
    // The sandbox tells of the change inside its call; the process dies in that first event.
    t.app.billing.fulfilment.state.probe = (step) => {
      if (step === "event-recorded") throw new Crash("died before the local write");
    };
    try {
      expect((await changeTo(t, user.token, superfan._id)).statusCode).toBe(500);
    } finally {
      t.app.billing.fulfilment.state.probe = null;
    }
    const subscriptionId = (await mine(t, user.token)).stripeSubscriptionId ?? "";
    const atProvider = await t.app.billing.sandbox.retrieveSubscription(subscriptionId);
    const invoice = await t.app.billing.sandbox.retrieveInvoice(atProvider?.latestInvoiceId ?? "");
    expect(invoice).toMatchObject({ status: "paid", billingReason: "subscription_update" });
    // Charged at the provider; here, the old plan, no payment, no credits.
    expect((await mine(t, user.token)).plan?._id).toBe(fan._id);
    expect(await planChangeRows(t, user.token)).toEqual([]);
    // The claim blocks another change (it may hide a charge) until it is settled.
    expect((await changeTo(t, user.token, superfan._id)).statusCode).toBe(409);

    await clock.advance(PAST_THE_LEASE);
    await Promise.all([t.app.billing.planChanges.sweep(), t.app.billing.planChanges.sweep()]);
    await clock.advance(PAST_THE_LEASE);
    expect((await mine(t, user.token)).plan?._id).toBe(superfan._id);
    expect(await planChangeRows(t, user.token)).toEqual([
      expect.objectContaining({
        status: "success",
        amount: (invoice?.amountPaid ?? 0) / 100,
        credits: 70,
      }),
    ]);
    expect(await balanceOf(t, user.token)).toBe(START + 120);
  });

  it("dead after everything was recorded but the claim: the sweep adds nothing", async () => {
    const user = await subscribedFan();
    t.app.billing.subscriptions.state.probe = (step) => {
      if (step === "provider-changed") throw new Crash("died before the settlement");
    };
    try {
      expect((await changeTo(t, user.token, superfan._id)).statusCode).toBe(500);
    } finally {
      t.app.billing.subscriptions.state.probe = null;
    }
    await clock.advance(PAST_THE_LEASE);
    expect((await mine(t, user.token)).plan?._id).toBe(superfan._id);
    expect(await planChangeRows(t, user.token)).toHaveLength(1);
    expect(await balanceOf(t, user.token)).toBe(START + 120);
    expect((await changeTo(t, user.token, fan._id)).statusCode).toBe(200);
  });
});

describe("a server killed with SIGKILL mid-upgrade (sandbox)", () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it("keeps the charge at the provider; after the restart the sweep records it exactly once", async () => {
    const first = await createTestApp({ env: { PUBLIC_URL: "https://twinline.example" } });
    const admin = (await adminSession(first)).token;
    const fan = await createPlan(first, admin, { name: "Kill Fan", price: 10, credits: 50 });
    const superfan = await createPlan(first, admin, {
      name: "Kill Superfan",
      price: 20,
      credits: 120,
    });
    const user = await signUp(first);
    const { paid } = await sandboxBuy(first, user.token, { planId: fan._id });
    expect(paid.statusCode, paid.body).toBe(200);
    await first.close();

    expect(
      await runUntilKilled(CHILD, {
        DATA_DIR: first.dataDir,
        DATABASE_URL: first.databaseUrl ?? "",
        USER_ID: user.user.id,
        PLAN_ID: superfan._id,
      }),
    ).toBe("SIGKILL");

    const clock = createManualClock();
    const t = await createTestApp({ sameDatabaseAs: first, billingClock: clock });
    apps.push(t);
    // The provider charged the proration; no payment row here, no credits.
    const subscriptionId = (await mine(t, user.token)).stripeSubscriptionId ?? "";
    const atProvider = await t.app.billing.sandbox.retrieveSubscription(subscriptionId);
    const invoice = await t.app.billing.sandbox.retrieveInvoice(atProvider?.latestInvoiceId ?? "");
    expect(invoice).toMatchObject({ status: "paid", billingReason: "subscription_update" });
    expect(await planChangeRows(t, user.token)).toEqual([]);
    expect(await balanceOf(t, user.token)).toBe(START + 50);

    await clock.advance(PAST_THE_LEASE);
    await Promise.all([t.app.billing.planChanges.sweep(), t.app.billing.planChanges.sweep()]);
    expect((await mine(t, user.token)).plan?._id).toBe(superfan._id);
    expect(await planChangeRows(t, user.token)).toEqual([
      expect.objectContaining({
        status: "success",
        amount: (invoice?.amountPaid ?? 0) / 100,
        credits: 70,
      }),
    ]);
    expect(await balanceOf(t, user.token)).toBe(START + 120);
    // A child server boots and dies in this test: more than the default time on a busy machine.
  }, 180_000);
});

describe("a plan change that crashes half-way is settled by the sweep, once (Stripe)", () => {
  const clock = createManualClock();
  let t: TestApp;
  let fake: FakeStripe;
  let admin: string;
  let small: Awaited<ReturnType<typeof createPlan>>;
  let large: Awaited<ReturnType<typeof createPlan>>;
  useStripeSuite(
    (suite) => {
      ({ t, fake, admin } = suite);
    },
    { billingClock: clock },
  );
  beforeAll(async () => {
    small = await createPlan(t, admin, { name: "Small", price: 10, credits: 50 });
    large = await createPlan(t, admin, { name: "Large", price: 40, credits: 200 });
  });

  const subscribedSmall = async () => {
    const user = await signUp(t);
    const response = await call(t, "POST", "/api/subscriptions/create-checkout", {
      token: user.token,
      body: { planId: small._id, consentVersion: CONSENT_VERSIONS.plan },
    });
    expect(response.statusCode, response.body).toBe(200);
    const done = await fake.completeCheckout(String(response.json().sessionId));
    for (const event of [
      fake.event("checkout.session.completed", done.session),
      fake.event("customer.subscription.created", done.subscription as Json),
      fake.event("invoice.paid", done.invoice as Json),
    ]) {
      expect((await deliver(t, event)).statusCode).toBe(200);
    }
    expect(await balanceOf(t, user.token)).toBe(START + 50);
    return { user, subscription: done.subscription as Json };
  };
  const changeInvoices = (subscriptionId: unknown) =>
    [...fake.invoices.values()].filter(
      (invoice) =>
        invoice.billing_reason === "subscription_update" &&
        ((invoice.parent as Json).subscription_details as Json).subscription === subscriptionId,
    );

  it("dead after the claim, before Stripe: the sweep releases it; nothing was charged", async () => {
    const { user, subscription } = await subscribedSmall();
    t.app.billing.subscriptions.state.probe = (step) => {
      if (step === "claimed") throw new Crash("died after the claim");
    };
    try {
      expect((await changeTo(t, user.token, large._id)).statusCode).toBe(500);
    } finally {
      t.app.billing.subscriptions.state.probe = null;
    }
    await clock.advance(PAST_THE_LEASE);
    expect(changeInvoices(subscription.id)).toEqual([]);
    expect((await mine(t, user.token)).plan?._id).toBe(small._id);
    expect(await planChangeRows(t, user.token)).toEqual([]);
    const again = await changeTo(t, user.token, large._id);
    expect(again.statusCode, again.body).toBe(200);
    expect(changeInvoices(subscription.id)).toHaveLength(1);
    expect(await balanceOf(t, user.token)).toBe(START + 200);
  });

  it("dead after Stripe charged, before the local write: the sweep records it once, then the webhooks nothing", async () => {
    const { user, subscription } = await subscribedSmall();
    t.app.billing.subscriptions.state.probe = (step) => {
      if (step === "provider-changed") throw new Crash("died before the local write");
    };
    try {
      expect((await changeTo(t, user.token, large._id)).statusCode).toBe(500);
    } finally {
      t.app.billing.subscriptions.state.probe = null;
    }
    const [charged] = changeInvoices(subscription.id);
    expect(charged).toMatchObject({ status: "paid" });
    expect(Number(charged?.amount_paid)).toBeGreaterThan(2900);
    expect((await mine(t, user.token)).plan?._id).toBe(small._id);
    expect(await planChangeRows(t, user.token)).toEqual([]);
    expect(await balanceOf(t, user.token)).toBe(START + 50);

    await clock.advance(PAST_THE_LEASE);
    await Promise.all([t.app.billing.planChanges.sweep(), t.app.billing.planChanges.sweep()]);
    expect((await mine(t, user.token)).plan?._id).toBe(large._id);
    const expected = [
      expect.objectContaining({
        status: "success",
        amount: Number(charged?.amount_paid) / 100,
        credits: 150,
      }),
    ];
    expect(await planChangeRows(t, user.token)).toEqual(expected);
    expect(await balanceOf(t, user.token)).toBe(START + 200);
    // Stripe's own webhooks arrive late: nothing more.
    await deliver(t, fake.event("customer.subscription.updated", subscription));
    await deliver(t, fake.event("invoice.paid", charged as Json));
    expect(await planChangeRows(t, user.token)).toEqual(expected);
    expect(await balanceOf(t, user.token)).toBe(START + 200);
    expect(changeInvoices(subscription.id)).toHaveLength(1);
    // Settled: the next change goes through.
    const back = await changeTo(t, user.token, small._id);
    expect(planChangeResultSchema.parse(back.json()).subscription.change).toBe("downgrade");
  });
});
