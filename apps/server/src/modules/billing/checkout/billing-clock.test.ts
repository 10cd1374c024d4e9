import {
  CONSENT_VERSIONS,
  checkoutResponseSchema,
  checkoutSessionResponseSchema,
  MONEY_TOOLS_MESSAGES,
  SANDBOX_CARDS,
} from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPackage, createPlan } from "../../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../../test/create-test-app.ts";
import { createManualClock, type ManualClock } from "../../../../test/manual-clock.ts";

const DAY_MS = 24 * 60 * 60_000;

/**
 * The checkout reads every time on the billing clock the sandbox dates its sessions by: on a
 * clock three days behind the wall clock, a session made a minute ago is open, payable and
 * blocks a second plan checkout; read on the wall clock it would already have expired.
 */
describe("checkout on a billing clock days away from the wall clock", () => {
  let t: TestApp;
  let admin: string;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = createManualClock(Date.now() - 3 * DAY_MS);
    t = await createTestApp({ billingClock: clock, billingSweeps: false });
    admin = (await adminSession(t)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("records, shows and takes payment on a package session by the billing clock", async () => {
    const pack = await createPackage(t, admin, { name: "Clock Pack", credits: 40, price: 3 });
    const fan = await signUp(t);
    const before = await balanceOf(t, fan.token);
    const madeAt = new Date(clock.now()).toISOString();
    const checkout = await call(t, "POST", "/api/payments/create-checkout-session", {
      token: fan.token,
      body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const { sessionId } = checkoutResponseSchema.parse(checkout.json());
    await clock.advance(60_000);

    const view = checkoutSessionResponseSchema.parse(
      (
        await call(t, "GET", `/api/payments/sandbox/sessions/${sessionId}`, { token: fan.token })
      ).json(),
    ).data;
    expect(view).toMatchObject({ status: "open", createdAt: madeAt });

    const paid = await call(t, "POST", `/api/payments/sandbox/sessions/${sessionId}/pay`, {
      token: fan.token,
      body: { cardNumber: SANDBOX_CARDS.success, expiry: "12/40", cvc: "123" },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await balanceOf(t, fan.token)).toBe(before + 40);
  });

  it("a plan checkout still open on the billing clock refuses a second one", async () => {
    const plan = await createPlan(t, admin, { name: "Clock Plan", price: 6 });
    const fan = await signUp(t);
    const open = () =>
      call(t, "POST", "/api/subscriptions/create-checkout", {
        token: fan.token,
        body: { planId: plan._id, consentVersion: CONSENT_VERSIONS.plan },
      });
    const first = await open();
    expect(first.statusCode, first.body).toBe(200);
    await clock.advance(60_000);
    const second = await open();
    expect(second.statusCode, second.body).toBe(409);
    expect(messageOf(second)).toBe(MONEY_TOOLS_MESSAGES.planCheckoutOpen);
  });
});
