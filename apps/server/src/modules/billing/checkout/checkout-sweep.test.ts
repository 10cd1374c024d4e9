import { fileURLToPath } from "node:url";
import {
  adminSubscriptionHistoryResponseSchema,
  adminSubscriptionTransactionsResponseSchema,
  CONSENT_VERSIONS,
  checkoutResponseSchema,
  SANDBOX_CARDS,
  userTransactionsResponseSchema,
} from "@twinline/contracts";
import { and, count, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../../test/accounts.ts";
import {
  adminCreditRows,
  balanceOf,
  createPackage,
  createPlan,
  sandboxBuy,
} from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { createManualClock } from "../../../../test/manual-clock.ts";
import { runUntilKilled } from "../../../../test/run-until-killed.ts";
import { checkoutSessions, creditLedger } from "../../../db/schema/index.ts";
import { CHECKOUT_SWEEP_AFTER_MS } from "./checkout-sweep.ts";

const CHILD = fileURLToPath(new URL("../../../../test/kill-mid-payment.child.ts", import.meta.url));

describe("every attempt leaves a row; the sweep credits what a crash left behind", () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it("a declined card: a failed row for the user and the admin; a declined plan also in history", async () => {
    const t = await createTestApp({ env: { PUBLIC_URL: "https://twinline.example" } });
    apps.push(t);
    const admin = (await adminSession(t)).token;
    const pack = await createPackage(t, admin, { name: "Declined Pack", credits: 30, price: 4 });
    const plan = await createPlan(t, admin, { name: "Declined Plan", price: 7 });
    const user = await signUp(t);

    const bought = await sandboxBuy(t, user.token, { packageId: pack._id }, SANDBOX_CARDS.declined);
    expect(bought.paid.statusCode).toBe(402);
    // A form mistake is not an attempt at the bank: no row.
    const incomplete = await call(
      t,
      "POST",
      `/api/payments/sandbox/sessions/${bought.sessionId}/pay`,
      {
        token: user.token,
        body: { cardNumber: "4242", expiry: "12/40", cvc: "123" },
      },
    );
    expect(incomplete.statusCode).toBe(402);
    expect(await balanceOf(t, user.token)).toBe(100);
    const mine = userTransactionsResponseSchema.parse(
      (await call(t, "GET", "/api/payments/history", { token: user.token })).json(),
    );
    expect(mine.transactions).toMatchObject([
      { status: "failed", credits: 30, amount: 4, failureReason: "Your card was declined." },
    ]);
    expect(
      (await adminCreditRows(t, admin, { userId: user.user.id, status: "failed" })).data,
    ).toHaveLength(1);

    const subscribed = await sandboxBuy(
      t,
      user.token,
      { planId: plan._id },
      SANDBOX_CARDS.declined,
    );
    expect(subscribed.paid.statusCode).toBe(402);
    const subscriptionRows = adminSubscriptionTransactionsResponseSchema.parse(
      (
        await call(t, "GET", "/api/admin/subscription-transactions", {
          token: admin,
          query: { userId: user.user.id, status: "failed" },
        })
      ).json(),
    );
    expect(subscriptionRows.data).toMatchObject([
      { status: "failed", amount: 7, planName: "Declined Plan" },
    ]);
    const history = adminSubscriptionHistoryResponseSchema.parse(
      (
        await call(t, "GET", "/api/admin/subscription-history", {
          token: admin,
          query: { userId: user.user.id, eventType: "payment_failed" },
        })
      ).json(),
    );
    expect(history.data).toMatchObject([
      { eventType: "payment_failed", status: "incomplete", amount: 7, autoRenew: false },
    ]);
    const mySubscriptionPayments = userTransactionsResponseSchema.parse(
      (await call(t, "GET", "/api/payments/subscription-history", { token: user.token })).json(),
    );
    expect(mySubscriptionPayments.transactions).toMatchObject([{ status: "failed" }]);
  });

  it("a server killed after the sandbox took the payment: the sweep credits it exactly once", async () => {
    const first = await createTestApp({ env: { PUBLIC_URL: "https://twinline.example" } });
    const admin = (await adminSession(first)).token;
    const pack = await createPackage(first, admin, { name: "Crash Pack", credits: 45, price: 6 });
    const user = await signUp(first);
    const checkout = await call(first, "POST", "/api/payments/create-checkout-session", {
      token: user.token,
      body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
    });
    const { sessionId } = checkoutResponseSchema.parse(checkout.json());
    await first.close();

    // The child pays at the provider, then dies inside the fulfilment's transaction.
    expect(
      await runUntilKilled(CHILD, {
        DATA_DIR: first.dataDir,
        DATABASE_URL: first.databaseUrl ?? "",
        SESSION_ID: sessionId,
      }),
    ).toBe("SIGKILL");

    const clock = createManualClock();
    const t = await createTestApp({ sameDatabaseAs: first, billingClock: clock });
    apps.push(t);
    const db = t.app.database.db;
    const purchases = async () =>
      (
        await db
          .select({ n: count() })
          .from(creditLedger)
          .where(and(eq(creditLedger.userId, user.user.id), eq(creditLedger.kind, "purchase")))
      )[0]?.n;
    // Charged at the provider, nothing credited, the session still open here.
    expect(await t.app.billing.sandbox.retrieveCheckoutSession(sessionId)).toMatchObject({
      status: "complete",
      paymentStatus: "paid",
    });
    expect(await balanceOf(t, user.token)).toBe(100);
    const [row] = await db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.sessionId, sessionId));
    expect(row).toMatchObject({ status: "open", fulfilledAt: null });

    await clock.advance(CHECKOUT_SWEEP_AFTER_MS + 60_000);
    expect(await balanceOf(t, user.token)).toBe(145);
    await clock.advance(30 * 60_000);
    await Promise.all([t.app.billing.sweep.sweep(), t.app.billing.sweep.sweep()]);
    expect(await balanceOf(t, user.token)).toBe(145);
    expect(await purchases()).toBe(1);
    expect((await adminCreditRows(t, admin, { userId: user.user.id })).data).toMatchObject([
      { status: "success", credits: 45, amount: 6 },
    ]);
    // A child server boots and dies in this test: more than the default time on a busy machine.
  }, 180_000);

  it("a sandbox session left open past its expiry is expired by the sweep", async () => {
    const clock = createManualClock();
    const t = await createTestApp({ billingClock: clock });
    apps.push(t);
    const admin = (await adminSession(t)).token;
    const pack = await createPackage(t, admin, { name: "Left Pack", credits: 5 });
    const user = await signUp(t);
    const checkout = await call(t, "POST", "/api/payments/create-checkout-session", {
      token: user.token,
      body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
    });
    const { sessionId } = checkoutResponseSchema.parse(checkout.json());
    await clock.advance(CHECKOUT_SWEEP_AFTER_MS + 60_000);
    const [open] = await t.app.database.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.sessionId, sessionId));
    expect(open?.status).toBe("open");
    // A day passes at once (a day of minute ticks would be thousands of sweep jobs).
    await clock.jump(25 * 60 * 60_000);
    const [closed] = await t.app.database.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.sessionId, sessionId));
    expect(closed?.status).toBe("expired");
    const paid = await call(t, "POST", `/api/payments/sandbox/sessions/${sessionId}/pay`, {
      token: user.token,
      body: { cardNumber: SANDBOX_CARDS.success, expiry: "12/40", cvc: "123" },
    });
    expect(paid.statusCode).toBe(409);
  });
});
