import {
  BILLING_MESSAGES,
  CHECKOUT_RETURN_PATHS,
  CONSENT_VERSIONS,
  checkoutSessionResponseSchema,
  creditPackagesResponseSchema,
  mySubscriptionResponseSchema,
  planChangeResultSchema,
  SANDBOX_CARDS,
  userSubscriptionHistoryResponseSchema,
  userTransactionsResponseSchema,
} from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../../test/accounts.ts";
import {
  adminCreditRows,
  balanceOf,
  createPackage,
  createPlan,
  sandboxBuy,
} from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";

describe("billing with no Stripe key: the sandbox checkout", () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: "https://twinline.example" } });
    admin = (await adminSession(t)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("creates packages with the spec's defaults and validation messages", async () => {
    const pack = await createPackage(t, admin);
    expect(pack).toMatchObject({
      name: "Starter Pack",
      credits: 100,
      price: 9.99,
      currency: "usd",
      discount: 0,
      discountedPrice: 9.99,
      isActive: true,
      // The sandbox makes no Stripe objects: "Not synced".
      stripeProductId: null,
      stripePriceId: null,
    });
    const cases: Array<[object, string]> = [
      [{ name: "  " }, BILLING_MESSAGES.packageNameRequired],
      [{ name: "A", credits: 0 }, BILLING_MESSAGES.creditsPositive],
      [{ name: "A", price: -1 }, BILLING_MESSAGES.priceNotNegative],
      [{ name: "A", currency: "jpy" }, "Currency must be one of usd, eur, gbp, inr"],
      [{ name: "A\u0000B" }, "Package name contains characters that are not allowed"],
    ];
    for (const [body, message] of cases) {
      const response = await call(t, "POST", "/api/credit-packages", { token: admin, body });
      expect(response.statusCode, response.body).toBe(400);
      expect(messageOf(response)).toContain(message);
    }
    const plan = await createPlan(t, admin, { price: undefined, name: "Free Tier" });
    expect(plan).toMatchObject({
      price: 0,
      currency: "usd",
      interval: "month",
      intervalCount: 1,
      isActive: true,
    });
    const noName = await call(t, "POST", "/api/subscriptions", { token: admin, body: {} });
    expect(messageOf(noName)).toContain(BILLING_MESSAGES.planNameRequired);
    const fixed = await call(t, "PUT", `/api/subscriptions/${plan._id}`, {
      token: admin,
      body: { name: "Free Tier", interval: "year" },
    });
    expect(fixed.statusCode).toBe(400);
    expect(messageOf(fixed)).toBe(BILLING_MESSAGES.intervalFixed);
  });

  it("guards management: no token 401, a user's token 403", async () => {
    const user = await signUp(t);
    expect(
      (await call(t, "POST", "/api/credit-packages", { body: { name: "X" } })).statusCode,
    ).toBe(401);
    for (const [method, url] of [
      ["POST", "/api/credit-packages"],
      ["POST", "/api/subscriptions"],
      ["GET", "/api/subscriptions"],
      ["GET", "/api/admin/credit-transactions"],
      ["GET", "/api/admin/subscription-history"],
      ["POST", "/api/credit-packages/sync-stripe"],
      ["GET", "/api/subscriptions/analytics"],
    ] as const) {
      const response = await call(t, method, url, { token: user.token, body: { name: "X" } });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it("lists active packages to users (by credits) and every package to the admin", async () => {
    const hidden = await createPackage(t, admin, { name: "Hidden", credits: 50, isActive: false });
    const big = await createPackage(t, admin, {
      name: "Big",
      credits: 1000,
      price: 50,
      discount: 20,
    });
    expect(big.discountedPrice).toBe(40);
    const user = await signUp(t);
    const seen = creditPackagesResponseSchema.parse(
      (await call(t, "GET", "/api/credit-packages", { token: user.token })).json(),
    );
    expect(seen.packages.map((p) => p._id)).not.toContain(hidden._id);
    const credits = seen.data.map((p) => p.credits);
    expect(credits).toEqual([...credits].sort((a, b) => a - b));
    const visitor = (await call(t, "GET", "/api/credit-packages")).json();
    expect(visitor.data.map((p: { _id: string }) => p._id)).not.toContain(hidden._id);
    const all = (await call(t, "GET", "/api/credit-packages", { token: admin })).json();
    expect(all.data.map((p: { _id: string }) => p._id)).toContain(hidden._id);

    const toggled = await call(t, "PATCH", `/api/credit-packages/${hidden._id}/toggle-status`, {
      token: admin,
    });
    expect(toggled.json()).toMatchObject({
      message: BILLING_MESSAGES.packageActivated,
      data: { isActive: true },
    });
    const deleted = await call(t, "DELETE", `/api/credit-packages/${hidden._id}`, { token: admin });
    expect(deleted.json()).toEqual({ success: true, message: BILLING_MESSAGES.packageDeleted });
    const after = (await call(t, "GET", "/api/credit-packages", { token: admin })).json();
    expect(after.data.map((p: { _id: string }) => p._id)).not.toContain(hidden._id);
    // With no Stripe key nothing is synced, and the answer says why (not "synced").
    for (const url of ["/api/credit-packages/sync-stripe", "/api/subscriptions/sync-stripe"]) {
      const sync = await call(t, "POST", url, { token: admin });
      expect(sync.json()).toMatchObject({
        mode: "sandbox",
        message: BILLING_MESSAGES.stripeNotConfigured,
        created: 0,
      });
    }
  });

  it("buys credits: nothing on checkout or return, a declined card changes nothing, the good card credits once", async () => {
    const pack = await createPackage(t, admin, { name: "Value Pack", credits: 250, price: 20 });
    const user = await signUp(t);
    const before = await balanceOf(t, user.token);

    const checkout = await call(t, "POST", "/api/payments/create-checkout-session", {
      token: user.token,
      body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const { url, sessionId } = checkout.json();
    expect(url).toBe(`https://twinline.example/checkout/sandbox/${sessionId}`);

    // The sandbox page reads the session; the return page too: no credits from either.
    const view = checkoutSessionResponseSchema.parse(
      (
        await call(t, "GET", `/api/payments/sandbox/sessions/${sessionId}`, { token: user.token })
      ).json(),
    ).data;
    expect(view).toMatchObject({
      status: "open",
      fulfilled: false,
      itemName: "Value Pack",
      amount: 20,
      currency: "usd",
      credits: 250,
      successUrl: `https://twinline.example${CHECKOUT_RETURN_PATHS.packageSuccess.replace("{CHECKOUT_SESSION_ID}", sessionId)}`,
    });
    await call(t, "GET", `/api/payments/checkout-sessions/${sessionId}`, { token: user.token });
    expect(await balanceOf(t, user.token)).toBe(before);

    // Another user cannot see or pay it.
    const other = await signUp(t);
    const foreign = await call(t, "GET", `/api/payments/sandbox/sessions/${sessionId}`, {
      token: other.token,
    });
    expect(foreign.statusCode).toBe(404);

    const declined = await call(t, "POST", `/api/payments/sandbox/sessions/${sessionId}/pay`, {
      token: user.token,
      body: { cardNumber: "4000 0000 0000 0002", expiry: "12/40", cvc: "123" },
    });
    expect(declined.statusCode).toBe(402);
    expect(messageOf(declined)).toBe("Your card was declined.");
    expect(await balanceOf(t, user.token)).toBe(before);

    const paid = await call(t, "POST", `/api/payments/sandbox/sessions/${sessionId}/pay`, {
      token: user.token,
      body: { cardNumber: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ status: "complete", fulfilled: true });
    expect(paid.json().redirectUrl).toContain(`session_id=${sessionId}`);
    expect(await balanceOf(t, user.token)).toBe(before + 250);
    // The charge's payment intent leads back to its session, as Stripe's do; the declined card
    // made none (its row was written when it was refused).
    const sandbox = t.app.billing.sandbox;
    const intentId = (await sandbox.retrieveCheckoutSession(sessionId))?.paymentIntentId ?? "";
    expect(await sandbox.retrievePaymentIntent(intentId)).toMatchObject({
      status: "succeeded",
      amountMinor: 2000,
      lastPaymentError: null,
      metadata: { packageId: pack._id },
    });
    expect(await sandbox.checkoutSessionOfPaymentIntent(intentId)).toMatchObject({
      id: sessionId,
    });

    // A second click: the same answer, no second credit.
    const again = await call(t, "POST", `/api/payments/sandbox/sessions/${sessionId}/pay`, {
      token: user.token,
      body: { cardNumber: SANDBOX_CARDS.success, expiry: "12/40", cvc: "123" },
    });
    expect(again.statusCode).toBe(200);
    expect(await balanceOf(t, user.token)).toBe(before + 250);

    const history = userTransactionsResponseSchema.parse(
      (await call(t, "GET", "/api/payments/history", { token: user.token })).json(),
    );
    // The declined attempt is a failed row of its own beside the paid one (decision 0036).
    expect(history.transactions).toHaveLength(2);
    expect(history.transactions.find((row) => row.status === "success")).toMatchObject({
      credits: 250,
      amount: 20,
      currency: "usd",
      status: "success",
      metadata: { packageName: "Value Pack" },
      failureReason: null,
    });
    expect(history.transactions.find((row) => row.status === "failed")).toMatchObject({
      credits: 250,
      amount: 20,
      failureReason: "Your card was declined.",
    });
    expect(history.pagination).toEqual({ total: 2, page: 1, limit: 10, pages: 1 });

    const rows = await adminCreditRows(t, admin, { userId: user.user.email, status: "success" });
    expect(rows.data).toHaveLength(1);
    expect(rows.data[0]).toMatchObject({
      credits: 250,
      amount: 20,
      userId: { _id: user.user.id, email: user.user.email, name: "Test User" },
    });
    const failed = await adminCreditRows(t, admin, { userId: user.user.email, status: "failed" });
    expect(failed.data).toMatchObject([{ failureReason: "Your card was declined." }]);
  });

  it("20 payments of one sandbox session at once credit it once", async () => {
    const pack = await createPackage(t, admin, { name: "Race Pack", credits: 40 });
    const user = await signUp(t);
    const { sessionId } = (
      await call(t, "POST", "/api/payments/create-checkout-session", {
        token: user.token,
        body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
      })
    ).json();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(t, "POST", `/api/payments/sandbox/sessions/${sessionId}/pay`, {
          token: user.token,
          body: { cardNumber: SANDBOX_CARDS.success, expiry: "12/40", cvc: "123" },
        }),
      ),
    );
    // Each click is answered paid (the winner) or closed (409); never a 500.
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    expect(results.some((r) => r.statusCode === 200)).toBe(true);
    expect(await balanceOf(t, user.token)).toBe(140);
  });

  it("refuses a bad card form with the card's own message", async () => {
    const pack = await createPackage(t, admin, { name: "Card Pack" });
    const user = await signUp(t);
    const { sessionId } = (
      await call(t, "POST", "/api/payments/create-checkout-session", {
        token: user.token,
        body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
      })
    ).json();
    const pay = (body: object) =>
      call(t, "POST", `/api/payments/sandbox/sessions/${sessionId}/pay`, {
        token: user.token,
        body,
      });
    expect(messageOf(await pay({ cardNumber: "42", expiry: "12/40", cvc: "123" }))).toBe(
      BILLING_MESSAGES.invalidCard,
    );
    expect(
      messageOf(await pay({ cardNumber: SANDBOX_CARDS.success, expiry: "01/20", cvc: "123" })),
    ).toBe(BILLING_MESSAGES.expiredCard);
    const cancel = await call(t, "POST", `/api/payments/sandbox/sessions/${sessionId}/cancel`, {
      token: user.token,
    });
    expect(cancel.json().data.status).toBe("canceled");
    expect(cancel.json().redirectUrl).toContain("checkout=canceled");
    const late = await pay({ cardNumber: SANDBOX_CARDS.success, expiry: "12/40", cvc: "123" });
    expect(late.statusCode).toBe(409);
    expect(await balanceOf(t, user.token)).toBe(100);
  });

  it("subscribes, changes plan with proration, cancels at period end", async () => {
    const basic = await createPlan(t, admin, { name: "Basic", price: 10, credits: 30 });
    const pro = await createPlan(t, admin, { name: "Pro", price: 30 });
    const user = await signUp(t);
    const none = mySubscriptionResponseSchema.parse(
      (await call(t, "GET", "/api/subscriptions/my-subscription", { token: user.token })).json(),
    );
    expect(none.data).toMatchObject({ status: "inactive", plan: null });

    const { paid } = await sandboxBuy(t, user.token, { planId: basic._id });
    expect(paid.statusCode, paid.body).toBe(200);
    const mine = mySubscriptionResponseSchema.parse(
      (await call(t, "GET", "/api/subscriptions/my-subscription", { token: user.token })).json(),
    ).data;
    expect(mine).toMatchObject({
      status: "active",
      plan: { _id: basic._id, name: "Basic", price: 10 },
      autoRenew: true,
      cancelAtPeriodEnd: false,
    });
    const days = (Date.parse(mine.endDate ?? "") - Date.parse(mine.startDate ?? "")) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(31);
    // The plan's credits came with the first payment.
    expect(await balanceOf(t, user.token)).toBe(130);
    const me = (await call(t, "GET", "/api/auth/me", { token: user.token })).json();
    expect(me.data.subscription).toMatchObject({ status: "active", planName: "Basic" });

    // A second checkout while subscribed: refused.
    const twice = await call(t, "POST", "/api/subscriptions/create-checkout", {
      token: user.token,
      body: { planId: pro._id, consentVersion: CONSENT_VERSIONS.plan },
    });
    expect(twice.statusCode).toBe(409);

    const changed = await call(t, "POST", "/api/subscriptions/upgrade", {
      token: user.token,
      body: { planId: pro._id },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const result = planChangeResultSchema.parse(changed.json());
    expect(result.subscription).toMatchObject({
      plan: { _id: pro._id, name: "Pro" },
      currency: "usd",
      change: "upgrade",
      status: "active",
    });
    // Almost the whole period is left: close to 30 - 10.
    expect(result.subscription.proratedAmount).toBeGreaterThan(19);
    expect(result.subscription.proratedAmount).toBeLessThanOrEqual(20);
    // A proration grants no plan credits.
    expect(await balanceOf(t, user.token)).toBe(130);

    const payments = userTransactionsResponseSchema.parse(
      (await call(t, "GET", "/api/payments/subscription-history", { token: user.token })).json(),
    );
    // Both paid within the same second (dates are whole seconds, as Stripe's): any order.
    expect(payments.transactions.map((p) => [p.planName, p.amount])).toEqual(
      expect.arrayContaining([
        ["Pro (plan change: charged at once)", result.subscription.proratedAmount],
        ["Basic", 10],
      ]),
    );
    expect(payments.transactions).toHaveLength(2);

    const canceled = await call(t, "POST", "/api/subscriptions/cancel", { token: user.token });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().subscription).toMatchObject({
      status: "canceled",
      cancelAtPeriodEnd: true,
      autoRenew: false,
    });
    const again = await call(t, "POST", "/api/subscriptions/cancel", { token: user.token });
    expect(again.statusCode).toBe(400);

    const history = userSubscriptionHistoryResponseSchema.parse(
      (await call(t, "GET", "/api/subscriptions/history", { token: user.token })).json(),
    );
    expect(history.data.map((e) => e.eventType).sort()).toEqual(["canceled", "created", "updated"]);

    // The admin's user details show the subscription and what was spent.
    const detail = (
      await call(t, "GET", `/api/admin/users/${user.user.id}`, { token: admin })
    ).json().data;
    expect(detail.subscription).toMatchObject({ status: "canceled", cancelAtPeriodEnd: true });
    expect(detail.totalSpent).toBeCloseTo(10 + (result.subscription.proratedAmount ?? 0), 2);
    const list = (
      await call(t, "GET", "/api/admin/users", { token: admin, query: { search: user.user.email } })
    ).json();
    expect(list.data[0].subscription).toMatchObject({ status: "canceled", planId: pro._id });
  });
});
