import {
  CONSENT_VERSIONS,
  checkoutResponseSchema,
  checkoutSessionResponseSchema,
  MONEY_TOOLS_MESSAGES,
  SANDBOX_CARDS,
} from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { call, messageOf, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPackage, createPlan } from "../../../../test/billing.ts";
import { useAppOnBillingClockBehind } from "../../../../test/billing-clock-app.ts";

/**
 * The checkout reads every time on the billing clock the sandbox dates its sessions by: on a
 * clock three days behind the wall clock, a session made a minute ago is open, payable and
 * blocks a second plan checkout; read on the wall clock it would already have expired.
 */
describe("checkout on a billing clock days away from the wall clock", () => {
  const app = useAppOnBillingClockBehind(3);
  const { clock, billingNow } = app;

  it("records, shows and takes payment on a package session by the billing clock", async () => {
    const pack = await createPackage(app.t, app.admin, {
      name: "Clock Pack",
      credits: 40,
      price: 3,
    });
    const fan = await signUp(app.t);
    const before = await balanceOf(app.t, fan.token);
    const madeAt = billingNow();
    const checkout = await call(app.t, "POST", "/api/payments/create-checkout-session", {
      token: fan.token,
      body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const { sessionId } = checkoutResponseSchema.parse(checkout.json());
    await clock.advance(60_000);

    const view = checkoutSessionResponseSchema.parse(
      (
        await call(app.t, "GET", `/api/payments/sandbox/sessions/${sessionId}`, {
          token: fan.token,
        })
      ).json(),
    ).data;
    expect(view).toMatchObject({ status: "open", createdAt: madeAt });

    const paid = await call(app.t, "POST", `/api/payments/sandbox/sessions/${sessionId}/pay`, {
      token: fan.token,
      body: { cardNumber: SANDBOX_CARDS.success, expiry: "12/40", cvc: "123" },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await balanceOf(app.t, fan.token)).toBe(before + 40);
  });

  it("a plan checkout still open on the billing clock refuses a second one", async () => {
    const plan = await createPlan(app.t, app.admin, { name: "Clock Plan", price: 6 });
    const fan = await signUp(app.t);
    const open = () =>
      call(app.t, "POST", "/api/subscriptions/create-checkout", {
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
