import { adminDashboardFullResponseSchema, adminRevenueResponseSchema } from "@twinline/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPackage, sandboxBuy } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { payments } from "../../../db/schema/index.ts";

/**
 * A refund in part is seen wherever money is summed (issue 24, item 2): revenue (the dashboard
 * and the transaction screens' cards), the user's Total Spent, the rows and the CSV export are
 * net of what went back; the credits taken back are rounded down.
 */
describe("partial refunds are net everywhere money is summed", () => {
  let t: TestApp;
  let admin: { token: string; id: string; email: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminSession(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const cents = (value: number) => Math.round(value * 100);

  /** Every figure that sums this money, in cents. */
  const figures = async (userId: string) => {
    const dashboard = adminDashboardFullResponseSchema.parse(
      (await call(t, "GET", "/api/admin/dashboard/metrics", { token: admin.token })).json(),
    ).data;
    const cards = adminRevenueResponseSchema.parse(
      (
        await call(t, "GET", "/api/admin/revenue", {
          token: admin.token,
          query: { kind: "credits" },
        })
      ).json(),
    ).data;
    const detail = (
      await call(t, "GET", `/api/admin/users/${userId}`, { token: admin.token })
    ).json();
    return {
      dashboard: cents(dashboard.totalRevenue.value),
      today: cents(dashboard.todayRevenue.value),
      cardsTotal: cents(cards.totalRevenue.value),
      cardsMonth: cents(cards.thisMonthRevenue.value),
      totalSpent: cents(detail.data.totalSpent),
    };
  };

  const refund = (paymentId: string, amount?: number) =>
    call(t, "POST", `/api/admin/payments/${paymentId}/refund`, {
      token: admin.token,
      body: { reason: "Part of it", ...(amount === undefined ? {} : { amount }) },
    });

  it("revenue, Total Spent, the rows and the CSV show what was given back; credits rounded down", async () => {
    const pack = await createPackage(t, admin.token, { name: "Odd", credits: 500, price: 9.99 });
    const fan = await signUp(t);
    const start = await figures(fan.user.id);
    const { paid } = await sandboxBuy(t, fan.token, { packageId: pack._id });
    expect(paid.statusCode, paid.body).toBe(200);
    const [payment] = await t.app.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, fan.user.id));
    if (!payment) throw new Error("no payment row");
    const delta = async () => {
      const now = await figures(fan.user.id);
      return {
        dashboard: now.dashboard - start.dashboard,
        today: now.today - start.today,
        cardsTotal: now.cardsTotal - start.cardsTotal,
        cardsMonth: now.cardsMonth - start.cardsMonth,
        totalSpent: now.totalSpent - start.totalSpent,
      };
    };
    const all = (value: number) => ({
      dashboard: value,
      today: value,
      cardsTotal: value,
      cardsMonth: value,
      totalSpent: value,
    });
    expect(await delta()).toEqual(all(999));

    // $3.33 of $9.99 is 166.67 credits: 166 are taken back, never 167.
    expect((await refund(payment.id, 3.33)).statusCode).toBe(200);
    expect(await balanceOf(t, fan.token)).toBe(600 - 166);
    expect(await delta()).toEqual(all(666));
    // Twice: 333.33 in all, 333 taken.
    expect((await refund(payment.id, 3.33)).statusCode).toBe(200);
    expect(await balanceOf(t, fan.token)).toBe(600 - 333);
    expect(await delta()).toEqual(all(333));

    // The rows: still a success (money was kept), with what went back.
    const mine = await call(t, "GET", "/api/payments/history", { token: fan.token });
    expect(mine.json().data[0]).toMatchObject({
      status: "success",
      amount: 9.99,
      refundedAmount: 6.66,
    });
    const exported = await call(t, "GET", "/api/admin/credit-transactions/export", {
      token: admin.token,
      query: { userId: fan.user.id },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain('"9.99","USD","success (refunded 6.66 of 9.99)"');

    // The rest: nothing is left anywhere, all the credits are back.
    expect((await refund(payment.id)).statusCode).toBe(200);
    expect(await balanceOf(t, fan.token)).toBe(100);
    expect(await delta()).toEqual(all(0));
  });
});
