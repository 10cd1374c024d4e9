import { CONSENT_VERSIONS, MONEY_TOOLS_MESSAGES, SANDBOX_CARDS } from "@twinline/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPackage } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { checkoutSessions, payments, users } from "../../../db/schema/index.ts";
import { MAX_CREDIT_BALANCE } from "../../credits/ledger.ts";

/**
 * A balance near the largest it can hold (issue 24, item 7): credits it could not hold would be
 * paid for and never granted ("The request holds a value that cannot be stored"). The checkout
 * is refused before anything is charged, with a 409 that says why; an admin's grant likewise.
 */
describe("a balance that cannot hold a package's credits", () => {
  let t: TestApp;
  let admin: { token: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminSession(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const setBalance = (userId: string, credits: number) =>
    t.app.database.db.update(users).set({ credits }).where(eq(users.id, userId));

  it("refuses the checkout, and the sandbox charge of a session made before, with the reason", async () => {
    const pack = await createPackage(t, admin.token, { name: "Too many", credits: 100, price: 5 });
    const fan = await signUp(t);
    // A session opened while the balance could still hold the credits.
    const opened = await call(t, "POST", "/api/payments/create-checkout-session", {
      token: fan.token,
      body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    await setBalance(fan.user.id, MAX_CREDIT_BALANCE - 99);

    const refused = await call(t, "POST", "/api/payments/create-checkout-session", {
      token: fan.token,
      body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
    });
    expect(refused.statusCode).toBe(409);
    expect(messageOf(refused)).toBe(MONEY_TOOLS_MESSAGES.balanceFull);

    const paid = await call(
      t,
      "POST",
      `/api/payments/sandbox/sessions/${opened.json().sessionId}/pay`,
      {
        token: fan.token,
        body: { cardNumber: SANDBOX_CARDS.success, expiry: "12/40", cvc: "123" },
      },
    );
    expect(paid.statusCode).toBe(409);
    expect(messageOf(paid)).toBe(MONEY_TOOLS_MESSAGES.balanceFull);
    // Nothing charged, nothing recorded as paid, the balance untouched.
    const rows = await t.app.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, fan.user.id));
    expect(rows).toHaveLength(0);
    const sessions = await t.app.database.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.userId, fan.user.id));
    expect(sessions).toHaveLength(1);
    expect(await balanceOf(t, fan.token)).toBe(MAX_CREDIT_BALANCE - 99);

    // Exactly what it can hold is fine.
    await setBalance(fan.user.id, MAX_CREDIT_BALANCE - 100);
    const fits = await call(t, "POST", "/api/payments/create-checkout-session", {
      token: fan.token,
      body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
    });
    expect(fits.statusCode, fits.body).toBe(200);
  });

  it("an admin's grant past the limit is a 409 with the reason, never a 500", async () => {
    const fan = await signUp(t);
    await setBalance(fan.user.id, MAX_CREDIT_BALANCE - 10);
    const response = await call(t, "POST", `/api/admin/users/${fan.user.id}/credits`, {
      token: admin.token,
      body: { delta: 11, reason: "Too generous" },
    });
    expect(response.statusCode).toBe(409);
    expect(messageOf(response)).toBe(MONEY_TOOLS_MESSAGES.balanceFull);
    expect(await balanceOf(t, fan.token)).toBe(MAX_CREDIT_BALANCE - 10);
  });
});
