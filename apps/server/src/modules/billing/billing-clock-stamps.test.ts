import { SANDBOX_CARDS } from "@twinline/contracts";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, signUp } from "../../../test/accounts.ts";
import { createPackage, createPlan, sandboxBuy } from "../../../test/billing.ts";
import { useAppOnBillingClockBehind } from "../../../test/billing-clock-app.ts";
import {
  paymentRefunds,
  payments,
  sandboxObjects,
  subscriptionPlans,
} from "../../db/schema/index.ts";

/**
 * Every money time is written on the billing clock the sweeps, the 14-day window and the
 * screens read: on a clock three days behind the wall clock, a package bought or declined, a
 * refund settled or refused and a plan deleted are each stamped with the billing clock's time.
 */
describe("money times on a billing clock days away from the wall clock", () => {
  const app = useAppOnBillingClockBehind(3);
  const { clock, billingNow } = app;

  const adminRows = async (userId: string) => {
    const response = await call(app.t, "GET", `/api/admin/users/${userId}/transactions`, {
      token: app.admin,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Array<{ _id: string; status: string; transactionDate: string }>;
  };
  const refundsOf = (paymentId: string) =>
    app.t.app.database.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, paymentId));

  it("dates a package bought and a card declined on the billing clock", async () => {
    const pack = await createPackage(app.t, app.admin, {
      name: "Clock Stamp",
      credits: 40,
      price: 3,
    });
    const fan = await signUp(app.t);
    const declinedAt = billingNow();
    const declined = await sandboxBuy(
      app.t,
      fan.token,
      { packageId: pack._id },
      SANDBOX_CARDS.declined,
    );
    expect(declined.paid.statusCode, declined.paid.body).toBe(402);
    await clock.advance(60_000);
    const boughtAt = billingNow();
    const bought = await sandboxBuy(app.t, fan.token, { packageId: pack._id });
    expect(bought.paid.statusCode, bought.paid.body).toBe(200);

    const rows = await adminRows(fan.user.id);
    expect(rows.map(({ status, transactionDate }) => ({ status, transactionDate }))).toEqual([
      { status: "success", transactionDate: boughtAt },
      { status: "failed", transactionDate: declinedAt },
    ]);
  });

  it("settles a refund, and fails a refused one, on the billing clock", async () => {
    const pack = await createPackage(app.t, app.admin, {
      name: "Clock Refund",
      credits: 10,
      price: 2,
    });
    const fan = await signUp(app.t);
    await sandboxBuy(app.t, fan.token, { packageId: pack._id });
    await clock.advance(60_000);
    await sandboxBuy(app.t, fan.token, { packageId: pack._id });
    const [refused, given] = await adminRows(fan.user.id);
    if (!refused || !given) throw new Error("two payments expected");

    await clock.advance(60_000);
    const settledAt = billingNow();
    const refund = await call(app.t, "POST", `/api/admin/payments/${given._id}/refund`, {
      token: app.admin,
      body: { reason: "Asked for it back" },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    const [settled] = await refundsOf(given._id);
    expect(settled?.status).toBe("succeeded");
    expect(settled?.settledAt?.toISOString()).toBe(settledAt);

    // The sandbox refuses a refund of a payment it has already given back in whole.
    const [payment] = await app.t.app.database.db
      .select()
      .from(payments)
      .where(eq(payments.id, refused._id));
    const intentId = payment?.stripePaymentId ?? "";
    const [intent] = await app.t.app.database.db
      .select()
      .from(sandboxObjects)
      .where(and(eq(sandboxObjects.id, intentId), eq(sandboxObjects.object, "payment_intent")));
    if (!intent) throw new Error("no sandbox payment intent");
    await app.t.app.database.db
      .update(sandboxObjects)
      .set({ data: { ...intent.data, amount_refunded: intent.data.amount } })
      .where(eq(sandboxObjects.id, intentId));
    await clock.advance(60_000);
    const failedAt = billingNow();
    const refusal = await call(app.t, "POST", `/api/admin/payments/${refused._id}/refund`, {
      token: app.admin,
      body: { reason: "Asked for it back" },
    });
    expect(refusal.statusCode, refusal.body).toBe(400);
    const [failed] = await refundsOf(refused._id);
    expect(failed?.status).toBe("failed");
    expect(failed?.settledAt?.toISOString()).toBe(failedAt);
  });

  it("stamps a deleted plan with the billing clock's time", async () => {
    const plan = await createPlan(app.t, app.admin, { name: "Clock Delete", price: 4 });
    await clock.advance(60_000);
    const deletedAt = billingNow();
    const response = await call(app.t, "DELETE", `/api/subscriptions/${plan._id}`, {
      token: app.admin,
    });
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await app.t.app.database.db
      .select()
      .from(subscriptionPlans)
      .where(eq(subscriptionPlans.id, plan._id));
    expect(row?.deletedAt?.toISOString()).toBe(deletedAt);
  });

  it("counts a plan's payment in today's revenue on the billing clock's day", async () => {
    const plan = await createPlan(app.t, app.admin, { name: "Clock Revenue", price: 7 });
    const fan = await signUp(app.t);
    const bought = await sandboxBuy(app.t, fan.token, { planId: plan._id });
    expect(bought.paid.statusCode, bought.paid.body).toBe(200);

    // The wall clock's today is three days on: read there, today's revenue would hold nothing.
    const revenue = await call(app.t, "GET", "/api/admin/revenue", { token: app.admin });
    expect(revenue.statusCode, revenue.body).toBe(200);
    expect(revenue.json().data.todayRevenue.value).toBeGreaterThanOrEqual(7);
    const dashboard = await call(app.t, "GET", "/api/admin/dashboard/metrics", {
      token: app.admin,
    });
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    expect(dashboard.json().data.todayRevenue.value).toBeGreaterThanOrEqual(7);
  });
});
