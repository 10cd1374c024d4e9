import {
  adminRefundResponseSchema,
  adminRevenueResponseSchema,
  adminSubscriptionActionResponseSchema,
  MONEY_TOOLS_MESSAGES,
} from "@twinline/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPackage, createPlan, sandboxBuy } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { paymentRefunds, payments } from "../../../db/schema/index.ts";

/**
 * Refunding a plan's payment takes its credits back but does not by itself stop the plan; the
 * latest payment of the plan in force may end it now in the same request (issue 24, item 3).
 */
describe("refunding the latest plan payment (sandbox)", () => {
  let t: TestApp;
  let admin: { token: string; id: string; email: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminSession(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const paymentsOf = (userId: string, kind: "credits" | "subscription") =>
    t.app.database.db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.kind, kind)));
  const mySubscription = async (token: string) =>
    (await call(t, "GET", "/api/subscriptions/my-subscription", { token })).json().data;

  it("ends the subscription now with the refund when asked: no longer active nor renewing", async () => {
    const plan = await createPlan(t, admin.token, { name: "Refund Ends", price: 20, credits: 40 });
    const fan = await signUp(t);
    expect((await sandboxBuy(t, fan.token, { planId: plan._id })).paid.statusCode).toBe(200);
    expect(await balanceOf(t, fan.token)).toBe(140);
    expect(await mySubscription(fan.token)).toMatchObject({ status: "active", autoRenew: true });
    const [payment] = await paymentsOf(fan.user.id, "subscription");
    if (!payment) throw new Error("no plan payment");

    const response = await call(t, "POST", `/api/admin/payments/${payment.id}/refund`, {
      token: admin.token,
      body: { reason: "Never used it", endSubscription: true },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(MONEY_TOOLS_MESSAGES.refundedAndEnded);
    const { data } = adminRefundResponseSchema.parse(response.json());
    expect(data.payment).toMatchObject({ status: "refunded", refundedAmount: 20 });
    expect(data.subscription?.providerStatus).toBe("canceled");
    expect(await balanceOf(t, fan.token)).toBe(100);
    const after = await mySubscription(fan.token);
    expect(after?.status).not.toBe("active");
    expect(after?.autoRenew ?? false).toBe(false);
  });

  it("ending is refused (400 naming the field, nothing refunded) for a payment that is not the latest plan payment", async () => {
    const pack = await createPackage(t, admin.token, { name: "Not a plan", credits: 50, price: 5 });
    const fan = await signUp(t);
    expect((await sandboxBuy(t, fan.token, { packageId: pack._id })).paid.statusCode).toBe(200);
    const [payment] = await paymentsOf(fan.user.id, "credits");
    if (!payment) throw new Error("no payment");
    const response = await call(t, "POST", `/api/admin/payments/${payment.id}/refund`, {
      token: admin.token,
      body: { reason: "Wrong box", endSubscription: true },
    });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toBe(MONEY_TOOLS_MESSAGES.notLatestPlanPayment);
    expect(response.json().error?.field ?? response.json().field).toBe("endSubscription");
    const claims = await t.app.database.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, payment.id));
    expect(claims).toHaveLength(0);
    expect(await balanceOf(t, fan.token)).toBe(150);
  });

  it("a cancel-now with the unused part refunded leaves in revenue only what was kept", async () => {
    const revenue = async () =>
      Math.round(
        adminRevenueResponseSchema.parse(
          (
            await call(t, "GET", "/api/admin/revenue", {
              token: admin.token,
              query: { kind: "subscriptions" },
            })
          ).json(),
        ).data.totalRevenue.value * 100,
      );
    const plan = await createPlan(t, admin.token, { name: "Cancel Net", price: 30, credits: 60 });
    const fan = await signUp(t);
    const before = await revenue();
    expect((await sandboxBuy(t, fan.token, { planId: plan._id })).paid.statusCode).toBe(200);
    expect((await revenue()) - before).toBe(3000);
    const now = await call(t, "POST", `/api/admin/users/${fan.user.id}/subscription/cancel`, {
      token: admin.token,
      body: { when: "now", refundUnused: true, reason: "Outage" },
    });
    expect(now.statusCode, now.body).toBe(200);
    const refunded = adminSubscriptionActionResponseSchema.parse(now.json()).data.refund?.amount;
    expect(refunded).toBeGreaterThan(29);
    expect((await revenue()) - before).toBe(3000 - Math.round((refunded ?? 0) * 100));
  });
});
