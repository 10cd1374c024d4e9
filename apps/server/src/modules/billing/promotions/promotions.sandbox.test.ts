import {
  auditLogResponseSchema,
  CONSENT_VERSIONS,
  checkoutSessionResponseSchema,
  PROMOTION_MESSAGES,
  promotionCodeListResponseSchema,
  promotionCodeSavedResponseSchema,
  userTransactionsResponseSchema,
} from "@twinline/contracts";
import { and, eq } from "drizzle-orm";
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
import { fanEmails, promotionCodes } from "../../../db/schema/index.ts";

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe("promotion codes on the sandbox (issue 27 item 4)", () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: "https://twinline.example" } });
    admin = (await adminSession(t)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const createCode = async (body: object) => {
    const response = await call(t, "POST", "/api/admin/promotion-codes", {
      token: admin,
      body: { appliesTo: "both", expiresAt: inDays(30), ...body },
    });
    expect(response.statusCode, response.body).toBe(200);
    return promotionCodeSavedResponseSchema.parse(response.json()).data;
  };

  const packageCheckout = (token: string, packageId: string, promotionCode?: string) =>
    call(t, "POST", "/api/payments/create-checkout-session", {
      token,
      body: { packageId, consentVersion: CONSENT_VERSIONS.credits, promotionCode },
    });

  const expectRefused = (response: { statusCode: number; json(): unknown }, message: string) => {
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      message,
      error: { field: "promotionCode" },
    });
  };

  it("validates the admin's form with messages naming the field", async () => {
    const cases: Array<[object, string]> = [
      [{ code: "x", kind: "percent", percentOff: 10 }, "at least 3 characters"],
      [{ code: "TEN OFF", kind: "percent", percentOff: 10 }, "only letters, digits"],
      [{ code: "TENOFF", kind: "percent" }, "Percent off is required"],
      [{ code: "TENOFF", kind: "percent", percentOff: 100 }, "less than 100"],
      [{ code: "TENOFF", kind: "amount", amountOff: 2 }, "Currency is required"],
      [{ code: "TENOFF", kind: "percent", percentOff: 10, expiresAt: inDays(-1) }, "future"],
      [{ code: "TENOFF", kind: "percent", percentOff: 10, maxRedemptions: 0 }, "at least 1"],
    ];
    for (const [body, message] of cases) {
      const response = await call(t, "POST", "/api/admin/promotion-codes", {
        token: admin,
        body: { appliesTo: "both", expiresAt: inDays(3), ...body },
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(messageOf(response)).toContain(message);
    }
    const fan = await signUp(t);
    const asFan = await call(t, "POST", "/api/admin/promotion-codes", {
      token: fan.token,
      body: { code: "FANCODE", kind: "percent", percentOff: 10, appliesTo: "both" },
    });
    expect(asFan.statusCode).toBe(403);
  });

  it("lowers a package's price, grants the package's credits, and shows the paid amount and the discount", async () => {
    const pack = await createPackage(t, admin, { name: "Promo pack", credits: 120, price: 9.99 });
    const code = await createCode({ code: "half-off", kind: "percent", percentOff: 50 });
    expect(code).toMatchObject({ code: "HALF-OFF", percentOff: 50, redemptions: 0 });
    const fan = await signUp(t);

    // Before paying: the fan sees the lowered total. 50% of 999 is 499.5: 500 off (a half cent
    // rounds in the fan's favour), 4.99 paid.
    const check = await call(t, "POST", "/api/payments/promotion-codes/check", {
      token: fan.token,
      body: { code: "half-off", packageId: pack._id },
    });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().data).toEqual({
      code: "HALF-OFF",
      amountBeforeDiscount: 9.99,
      discount: 5,
      amount: 4.99,
      currency: "usd",
    });

    const revenue = async () =>
      (await call(t, "GET", "/api/admin/revenue", { token: admin })).json().data.totalRevenue
        .value as number;
    const revenueBefore = await revenue();
    const { sessionId, paid } = await sandboxBuy(t, fan.token, {
      packageId: pack._id,
      promotionCode: "Half-Off",
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const view = checkoutSessionResponseSchema.parse(
      (
        await call(t, "GET", `/api/payments/checkout-sessions/${sessionId}`, { token: fan.token })
      ).json(),
    ).data;
    expect(view).toMatchObject({
      amount: 4.99,
      amountBeforeDiscount: 9.99,
      discount: 5,
      promotionCode: "HALF-OFF",
      fulfilled: true,
    });
    expect(await balanceOf(t, fan.token)).toBeGreaterThanOrEqual(120);
    // The revenue figures count what was paid, not the list price.
    expect(Math.round((await revenue()) * 100) - Math.round(revenueBefore * 100)).toBe(499);

    const history = userTransactionsResponseSchema.parse(
      (await call(t, "GET", "/api/payments/history", { token: fan.token })).json(),
    );
    expect(history.data[0]).toMatchObject({
      amount: 4.99,
      discount: 5,
      promotionCode: "HALF-OFF",
      credits: 120,
    });
    const adminRows = await adminCreditRows(t, admin);
    expect(adminRows.data.find((row) => row.userId?._id === fan.user.id)).toMatchObject({
      amount: 4.99,
      discount: 5,
      promotionCode: "HALF-OFF",
    });
    // The receipt names the discount and the amount paid.
    const [mail] = await t.app.database.db
      .select({ payload: fanEmails.payload })
      .from(fanEmails)
      .where(and(eq(fanEmails.userId, fan.user.id), eq(fanEmails.kind, "receipt")));
    expect(mail?.payload).toMatchObject({
      amountMinor: 499,
      discountMinor: 500,
      promotionCode: "HALF-OFF",
    });

    // Once per fan: a second checkout with the same code is refused.
    expectRefused(
      await packageCheckout(fan.token, pack._id, "HALF-OFF"),
      PROMOTION_MESSAGES.alreadyUsed,
    );
    const list = promotionCodeListResponseSchema.parse(
      (await call(t, "GET", "/api/admin/promotion-codes", { token: admin })).json(),
    );
    expect(list.data.find((each) => each.code === "HALF-OFF")?.redemptions).toBe(1);
  });

  it("refuses unknown, expired, disabled, used up and wrong-product codes, naming the field", async () => {
    const pack = await createPackage(t, admin, { name: "Rules pack", credits: 50, price: 5 });
    const fan = await signUp(t);
    expectRefused(await packageCheckout(fan.token, pack._id, "NOSUCH"), PROMOTION_MESSAGES.unknown);

    const plansOnly = await createCode({
      code: "PLANSONLY",
      kind: "percent",
      percentOff: 10,
      appliesTo: "plans",
    });
    expectRefused(
      await packageCheckout(fan.token, pack._id, plansOnly.code),
      PROMOTION_MESSAGES.wrongProduct,
    );
    const euros = await createCode({
      code: "EURO2",
      kind: "amount",
      amountOff: 2,
      currency: "eur",
    });
    expectRefused(
      await packageCheckout(fan.token, pack._id, euros.code),
      PROMOTION_MESSAGES.wrongCurrency,
    );
    const tooMuch = await createCode({
      code: "FIVEOFF",
      kind: "amount",
      amountOff: 5,
      currency: "usd",
    });
    expectRefused(
      await packageCheckout(fan.token, pack._id, tooMuch.code),
      PROMOTION_MESSAGES.zeroTotal,
    );

    const expired = await createCode({ code: "OLDCODE", kind: "percent", percentOff: 10 });
    await t.app.database.db
      .update(promotionCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(promotionCodes.id, expired._id));
    expectRefused(
      await packageCheckout(fan.token, pack._id, "OLDCODE"),
      PROMOTION_MESSAGES.expired,
    );

    const disabled = await createCode({ code: "STOPPED", kind: "percent", percentOff: 10 });
    const off = await call(t, "PATCH", `/api/admin/promotion-codes/${disabled._id}`, {
      token: admin,
      body: { isActive: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expectRefused(
      await packageCheckout(fan.token, pack._id, "STOPPED"),
      PROMOTION_MESSAGES.inactive,
    );

    // Used up: one use; the first fan's open checkout holds it, a second fan is refused.
    const once = await createCode({
      code: "ONEUSE",
      kind: "percent",
      percentOff: 10,
      maxRedemptions: 1,
    });
    const first = await packageCheckout(fan.token, pack._id, once.code);
    expect(first.statusCode, first.body).toBe(200);
    const other = await signUp(t);
    expectRefused(
      await packageCheckout(other.token, pack._id, once.code),
      PROMOTION_MESSAGES.usedUp,
    );
    // The first fan leaves the checkout: the use is free again.
    await call(t, "POST", `/api/payments/sandbox/sessions/${first.json().sessionId}/cancel`, {
      token: fan.token,
    });
    const second = await packageCheckout(other.token, pack._id, once.code);
    expect(second.statusCode, second.body).toBe(200);

    // A blank code is no code.
    const blank = await packageCheckout(fan.token, pack._id, "");
    expect(blank.statusCode, blank.body).toBe(200);
    // Every admin write is in the audit log.
    const audit = auditLogResponseSchema.parse(
      (
        await call(t, "GET", "/api/admin/audit-log", {
          token: admin,
          query: { targetType: "promotion", limit: "100" },
        })
      ).json(),
    );
    const actions = audit.data.map((entry) => `${entry.action} ${entry.targetId}`);
    expect(actions).toContain(`promotion.create ${once._id}`);
    expect(actions).toContain(`promotion.disable ${disabled._id}`);
  });

  it("lowers a plan's first payment, with the plan's credits (renewals: promotions.stripe.test.ts)", async () => {
    const plan = await createPlan(t, admin, { name: "Promo plan", price: 10, credits: 40 });
    await createCode({
      code: "FIRSTMONTH",
      kind: "amount",
      amountOff: 3,
      currency: "usd",
      appliesTo: "plans",
    });
    const fan = await signUp(t);
    const { paid } = await sandboxBuy(t, fan.token, {
      planId: plan._id,
      promotionCode: "firstmonth",
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const history = userTransactionsResponseSchema.parse(
      (await call(t, "GET", "/api/payments/subscription-history", { token: fan.token })).json(),
    );
    expect(history.data[0]).toMatchObject({
      amount: 7,
      discount: 3,
      promotionCode: "FIRSTMONTH",
      credits: 40,
    });
  });

  it("counts the last use exactly when two fans take it at once", async () => {
    const pack = await createPackage(t, admin, { name: "Race pack", credits: 10, price: 3 });
    const code = await createCode({
      code: "LASTONE",
      kind: "percent",
      percentOff: 20,
      maxRedemptions: 1,
    });
    const [a, b] = await Promise.all([signUp(t), signUp(t)]);
    const answers = await Promise.all([
      packageCheckout(a.token, pack._id, code.code),
      packageCheckout(b.token, pack._id, code.code),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 400]);
    const loser = answers.find((answer) => answer.statusCode === 400);
    expect(loser?.json()).toMatchObject({ message: PROMOTION_MESSAGES.usedUp });
  });
});
