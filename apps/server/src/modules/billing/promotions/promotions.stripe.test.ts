import {
  CONSENT_VERSIONS,
  PROMOTION_MESSAGES,
  promotionCodeSavedResponseSchema,
} from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPackage, createPlan } from "../../../../test/billing.ts";
import type { TestApp } from "../../../../test/create-test-app.ts";
import { useStripeSuite } from "../../../../test/stripe-app.ts";
import { deliver } from "../../../../test/stripe-webhooks.ts";
import { payments, promotionCodes } from "../../../db/schema/index.ts";

// Far enough that the fake Stripe's clock, moved a period on by renew(), is still before it.
// Far off: the fake Stripe's clock moves a period on at each renew().
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
type Json = Record<string, unknown>;

describe("promotion codes on Stripe (issue 27 item 4): coupons, promotion codes, discounts", () => {
  let t: TestApp;
  let fake: FakeStripe;
  let admin: string;
  useStripeSuite((suite) => {
    ({ t, fake, admin } = suite);
  });

  const createCode = async (body: object) => {
    const response = await call(t, "POST", "/api/admin/promotion-codes", {
      token: admin,
      body: { appliesTo: "both", expiresAt: inDays(365), ...body },
    });
    expect(response.statusCode, response.body).toBe(200);
    return promotionCodeSavedResponseSchema.parse(response.json()).data;
  };
  const paymentRows = (userId: string) =>
    t.app.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(asc(payments.seq));

  it("makes a Stripe coupon and promotion code, and Stripe's discounted total is what is paid", async () => {
    const code = await createCode({
      code: "STRIPE15",
      kind: "percent",
      percentOff: 12.5,
      maxRedemptions: 5,
    });
    expect(code.stripePromotionCodeId).toMatch(/^promo_/);
    const promotion = fake.promotionCodes.get(String(code.stripePromotionCodeId)) as Json;
    expect(promotion).toMatchObject({ code: "STRIPE15", max_redemptions: 5, active: true });
    const coupon = fake.coupons.get(String((promotion.promotion as Json).coupon)) as Json;
    expect(coupon).toMatchObject({ percent_off: 12.5, duration: "once" });

    const pack = await createPackage(t, admin, { name: "Stripe promo", credits: 80, price: 9.99 });
    const fan = await signUp(t);
    const checkout = await call(t, "POST", "/api/payments/create-checkout-session", {
      token: fan.token,
      body: {
        packageId: pack._id,
        consentVersion: CONSENT_VERSIONS.credits,
        promotionCode: "stripe15",
      },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const session = fake.sessions.get(checkout.json().sessionId) as Json;
    // 12.5% of 999 is 124.875: 125 off, 874 paid.
    expect(session).toMatchObject({
      amount_subtotal: 999,
      amount_total: 874,
      total_details: { amount_discount: 125 },
      discounts: [{ promotion_code: code.stripePromotionCodeId }],
    });
    const done = await fake.completeCheckout(String(session.id));
    const answer = await deliver(t, fake.event("checkout.session.completed", done.session));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await balanceOf(t, fan.token)).toBeGreaterThanOrEqual(80);
    const [row] = await paymentRows(fan.user.id);
    expect(row).toMatchObject({
      status: "success",
      amountMinor: 874,
      discountMinor: 125,
      promotionCode: "STRIPE15",
      credits: 80,
    });
    expect(promotion.times_redeemed).toBe(1);
  });

  it("a half minor unit rounded Stripe's way, not ours: what Stripe charges is what is sold, and granted", async () => {
    // 12.5% of 1,012 is 126.5: a half up here (127 off), a half to even at this Stripe (126).
    fake.rounding.percentHalf = "even";
    try {
      await createCode({ code: "HALFCENT", kind: "percent", percentOff: 12.5 });
      const pack = await createPackage(t, admin, { name: "Half cent", credits: 40, price: 10.12 });
      const fan = await signUp(t);
      const before = await balanceOf(t, fan.token);
      const checkout = await call(t, "POST", "/api/payments/create-checkout-session", {
        token: fan.token,
        body: {
          packageId: pack._id,
          consentVersion: CONSENT_VERSIONS.credits,
          promotionCode: "HALFCENT",
        },
      });
      expect(checkout.statusCode, checkout.body).toBe(200);
      const session = fake.sessions.get(checkout.json().sessionId) as Json;
      expect(session).toMatchObject({ amount_total: 886, total_details: { amount_discount: 126 } });
      const done = await fake.completeCheckout(String(session.id));
      const answer = await deliver(t, fake.event("checkout.session.completed", done.session));
      expect(answer.statusCode, answer.body).toBe(200);
      expect(await balanceOf(t, fan.token)).toBe(before + 40);
      const [row] = await paymentRows(fan.user.id);
      expect(row).toMatchObject({
        status: "success",
        amountMinor: 886,
        discountMinor: 126,
        promotionCode: "HALFCENT",
      });
    } finally {
      fake.rounding.percentHalf = "up";
    }
  });

  it("lowers a plan's first invoice only, and a disabled code is disabled at Stripe too", async () => {
    const code = await createCode({
      code: "PLAN2OFF",
      kind: "amount",
      amountOff: 2,
      currency: "usd",
      appliesTo: "plans",
    });
    const plan = await createPlan(t, admin, { name: "Stripe promo plan", price: 8, credits: 20 });
    const fan = await signUp(t);
    const checkout = await call(t, "POST", "/api/subscriptions/create-checkout", {
      token: fan.token,
      body: { planId: plan._id, consentVersion: CONSENT_VERSIONS.plan, promotionCode: "PLAN2OFF" },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const done = await fake.completeCheckout(checkout.json().sessionId);
    for (const event of [
      fake.event("checkout.session.completed", done.session),
      fake.event("customer.subscription.created", done.subscription as Json),
      fake.event("invoice.paid", done.invoice as Json),
    ]) {
      const answer = await deliver(t, event);
      expect(answer.statusCode, answer.body).toBe(200);
    }
    const renewal = await fake.renew(String((done.subscription as Json).id));
    await deliver(t, fake.event("invoice.paid", renewal.invoice));
    const rows = await paymentRows(fan.user.id);
    expect(rows.map((row) => [row.amountMinor, row.discountMinor, row.promotionCode])).toEqual([
      [600, 200, "PLAN2OFF"],
      [800, 0, null],
    ]);

    const off = await call(t, "PATCH", `/api/admin/promotion-codes/${code._id}`, {
      token: admin,
      body: { isActive: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(fake.promotionCodes.get(String(code.stripePromotionCodeId))?.active).toBe(false);
    const again = await call(t, "POST", "/api/subscriptions/create-checkout", {
      token: (await signUp(t)).token,
      body: { planId: plan._id, consentVersion: CONSENT_VERSIONS.plan, promotionCode: "PLAN2OFF" },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      message: PROMOTION_MESSAGES.inactive,
      error: { field: "promotionCode" },
    });
  });

  it("refuses expired, used up, wrong-product and second uses before Stripe is asked", async () => {
    const pack = await createPackage(t, admin, { name: "Stripe rules", credits: 10, price: 4 });
    const plansOnly = await createCode({
      code: "ONLYPLANS",
      kind: "percent",
      percentOff: 10,
      appliesTo: "plans",
    });
    const once = await createCode({
      code: "STRIPEONE",
      kind: "percent",
      percentOff: 10,
      maxRedemptions: 1,
    });
    const expired = await createCode({ code: "STRIPEOLD", kind: "percent", percentOff: 10 });
    await t.app.database.db
      .update(promotionCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(promotionCodes.id, expired._id));
    const buy = (token: string, promotionCode: string) =>
      call(t, "POST", "/api/payments/create-checkout-session", {
        token,
        body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits, promotionCode },
      });
    const fan = await signUp(t);
    const sessionsBefore = fake.sessions.size;
    for (const [codeText, message] of [
      [plansOnly.code, PROMOTION_MESSAGES.wrongProduct],
      [expired.code, PROMOTION_MESSAGES.expired],
    ] as const) {
      const refused = await buy(fan.token, codeText);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ message, error: { field: "promotionCode" } });
    }
    expect(fake.sessions.size).toBe(sessionsBefore);
    const first = await buy(fan.token, once.code);
    expect(first.statusCode, first.body).toBe(200);
    const again = await buy(fan.token, once.code);
    expect(again.json()).toMatchObject({ message: PROMOTION_MESSAGES.alreadyUsed });
    const other = await buy((await signUp(t)).token, once.code);
    expect(other.json()).toMatchObject({ message: PROMOTION_MESSAGES.usedUp });
  });
});
