import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { createStripeEmulator } from "./emulator.ts";
import { emulatorFetch } from "./fetch.ts";

const KEY = "sk_test_emulator_in_process";

function sdkOver() {
  const emulator = createStripeEmulator({ secretKey: KEY });
  const stripe = new Stripe(KEY, {
    httpClient: Stripe.createFetchHttpClient(emulatorFetch(emulator)),
    maxNetworkRetries: 0,
    telemetry: false,
  });
  return { emulator, stripe };
}

describe("the official SDK over the emulator, in-process", () => {
  it("sells a subscription: checkout, payment, the subscription and its first invoice", async () => {
    const { emulator, stripe } = sdkOver();
    const product = await stripe.products.create({ name: "Plan" });
    const price = await stripe.prices.create({
      product: product.id,
      unit_amount: 900,
      currency: "usd",
      recurring: { interval: "month" },
    });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: "https://app.test/ok",
    });

    await emulator.completeCheckout(session.id);

    const paid = await stripe.checkout.sessions.retrieve(session.id);
    expect(paid).toMatchObject({ status: "complete", payment_status: "paid" });
    const subscription = await stripe.subscriptions.retrieve(String(paid.subscription));
    expect(subscription.status).toBe("active");
    const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect(invoice).toMatchObject({ amount_paid: 900, billing_reason: "subscription_create" });
  });

  it("refunds once for a retried idempotency key, and throws Stripe's errors", async () => {
    const { emulator, stripe } = sdkOver();
    const session = await stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [
        {
          price_data: { currency: "eur", unit_amount: 1500, product_data: { name: "Credits" } },
          quantity: 1,
        },
      ],
      success_url: "https://app.test/ok",
    });
    const { session: paid } = await emulator.completeCheckout(session.id);
    const intent = String(paid.payment_intent);

    const first = await stripe.refunds.create({ payment_intent: intent }, { idempotencyKey: "k1" });
    const again = await stripe.refunds.create({ payment_intent: intent }, { idempotencyKey: "k1" });

    expect(again.id).toBe(first.id);
    await expect(stripe.refunds.create({ payment_intent: intent })).rejects.toMatchObject({
      statusCode: 400,
      code: "charge_already_refunded",
    });
    await expect(stripe.customers.retrieve("cus_missing")).rejects.toMatchObject({
      statusCode: 404,
      code: "resource_missing",
    });
  });
});
