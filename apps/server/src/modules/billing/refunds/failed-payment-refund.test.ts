import {
  adminRefundResponseSchema,
  CONSENT_VERSIONS,
  MONEY_TOOLS_MESSAGES,
} from "@twinline/contracts";
import type { FakeStripe } from "@twinline/fakes";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, messageOf, signUp } from "../../../../test/accounts.ts";
import { balanceOf, createPackage } from "../../../../test/billing.ts";
import type { TestApp } from "../../../../test/create-test-app.ts";
import { useStripeSuite } from "../../../../test/stripe-app.ts";
import { deliver } from "../../../../test/stripe-webhooks.ts";
import { payments } from "../../../db/schema/index.ts";

/**
 * A package paid at a wrong amount is a failed row that took money (decision 0036); the operator
 * gives that money back from the screen (issue 24, item 4): a refund of its own kind, nothing
 * taken from the credits (none were granted), the row stays failed with what went back.
 */
describe("refunding a failed payment that took money (Stripe)", () => {
  let t: TestApp;
  let fake: FakeStripe;
  let admin: string;
  useStripeSuite((suite) => {
    ({ t, fake, admin } = suite);
  });

  it("gives back what was charged, takes no credits, and keeps the row failed", async () => {
    const pack = await createPackage(t, admin, { name: "Wrong amount", credits: 200, price: 9 });
    const fan = await signUp(t);
    const checkout = await call(t, "POST", "/api/payments/create-checkout-session", {
      token: fan.token,
      body: { packageId: pack._id, consentVersion: CONSENT_VERSIONS.credits },
    });
    const done = await fake.completeCheckout(checkout.json().sessionId);
    done.session.amount_total = 1;
    expect(
      (await deliver(t, fake.event("checkout.session.completed", done.session))).statusCode,
    ).toBe(200);
    const [row] = await t.app.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, fan.user.id));
    if (!row?.stripePaymentId) throw new Error("no payment row");
    expect(row.status).toBe("failed");
    expect(await balanceOf(t, fan.token)).toBe(100);

    // The screen offers its refund: the server says the row has money to give back.
    const listed = async () =>
      (
        await call(t, "GET", `/api/admin/users/${fan.user.id}/transactions`, { token: admin })
      ).json().data[0];
    expect(await listed()).toMatchObject({ status: "failed", refundable: true });

    const response = await call(t, "POST", `/api/admin/payments/${row.id}/refund`, {
      token: admin,
      body: { reason: "Charged the wrong amount" },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = adminRefundResponseSchema.parse(response.json());
    expect(data.refund).toMatchObject({
      kind: "failed_payment",
      status: "succeeded",
      amount: 0.01,
      creditsTaken: 0,
      creditsShortfall: 0,
    });
    expect(data.payment).toMatchObject({ status: "failed", amount: 0.01, refundedAmount: 0.01 });
    expect(await balanceOf(t, fan.token)).toBe(100);
    expect(await listed()).toMatchObject({
      status: "failed",
      refundable: false,
      refundedAmount: 0.01,
    });
    const atStripe = [...fake.refunds.values()].filter(
      (r) => r.payment_intent === row.stripePaymentId,
    );
    expect(atStripe).toHaveLength(1);
    expect(atStripe[0]).toMatchObject({ amount: 1 });

    const again = await call(t, "POST", `/api/admin/payments/${row.id}/refund`, {
      token: admin,
      body: { reason: "Again" },
    });
    expect(again.statusCode).toBe(409);
    expect(messageOf(again)).toBe(MONEY_TOOLS_MESSAGES.nothingLeft);
  });
});
