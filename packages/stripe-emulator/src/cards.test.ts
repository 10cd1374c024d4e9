import { describe, expect, it } from "vitest";
import { TEST_CARD_THAT_PAYS } from "./cards.ts";
import { createStripeEmulator } from "./emulator.ts";
import type { Json } from "./json.ts";
import { api, emulatorAt, subscribed, TEST_KEY } from "./test-api.ts";

const DECLINED = "4000000000000002";
const DAY = 86_400;
const itemOf = (subscription: Json) => (subscription.items as { data: Json[] }).data[0] as Json;

describe("renewals charged on the customer's default card", () => {
  it("pays with the card the subscription was bought with when none was saved", async () => {
    const { emulator } = emulatorAt(Date.UTC(2027, 0, 10));
    const { subscription } = await subscribed(emulator, 900);

    const renewal = await emulator.chargeRenewal(String(subscription.id));

    expect(renewal.paid).toBe(true);
    expect(renewal.invoice).toMatchObject({ status: "paid", amount_paid: 900 });
    expect(renewal.subscription.status).toBe("active");
  });

  it("is declined on a saved card other than the one that pays, and paid once it is back", async () => {
    const { emulator } = emulatorAt(Date.UTC(2027, 0, 10));
    const { subscription } = await subscribed(emulator, 900);
    const id = String(subscription.id);

    const card = await emulator.updateCard(id, DECLINED);
    const customer = await api(emulator, "GET", `/v1/customers/${subscription.customer}`);
    expect(customer.body.invoice_settings).toEqual({ default_payment_method: card.id });
    expect(card.card).toEqual({ brand: "visa", last4: "0002" });
    const declined = await emulator.chargeRenewal(id);
    expect(declined).toMatchObject({ paid: false, invoice: { status: "open" } });
    expect(declined.subscription.status).toBe("past_due");

    await emulator.updateCard(id, TEST_CARD_THAT_PAYS);
    const retried = await emulator.chargeRenewal(id);

    expect(retried).toMatchObject({ paid: true, invoice: { id: declined.invoice.id } });
    expect(retried.invoice).toMatchObject({ status: "paid", attempt_count: 2 });
    expect(retried.subscription.status).toBe("active");
  });
});

describe("the retry schedule of a declined renewal", () => {
  it("retries a day later by default, and the second decline leaves it unpaid", async () => {
    const { emulator } = emulatorAt(Date.UTC(2027, 0, 10));
    const { subscription } = await subscribed(emulator, 900);
    const id = String(subscription.id);
    const periodEnd = Number(itemOf(subscription).current_period_end);

    const first = await emulator.failRenewal(id);
    expect(first.invoice).toMatchObject({
      attempt_count: 1,
      next_payment_attempt: periodEnd + DAY,
    });
    expect(first.subscription.status).toBe("past_due");

    const second = await emulator.failRenewal(id);
    expect(second.invoice).toMatchObject({ attempt_count: 2, next_payment_attempt: null });
    expect(second.subscription.status).toBe("unpaid");
  });

  it("follows the attempts and delay it is given", async () => {
    const emulator = createStripeEmulator({
      secretKey: TEST_KEY,
      now: () => Date.UTC(2027, 0, 10),
      renewalRetries: { attempts: 3, afterSeconds: 2 * DAY },
    });
    const { subscription } = await subscribed(emulator, 900);
    const id = String(subscription.id);

    await emulator.failRenewal(id);
    const second = await emulator.failRenewal(id);
    expect(second.subscription.status).toBe("past_due");
    expect(second.invoice.next_payment_attempt).toBe(emulator.clock.now() + 2 * DAY);
    const third = await emulator.failRenewal(id);
    expect(third.subscription.status).toBe("unpaid");
    expect(third.invoice.next_payment_attempt).toBeNull();
  });
});

describe("the emulator's options for a sandbox", () => {
  it("tags every id and sends the buyer to the page it is given", async () => {
    const emulator = createStripeEmulator({
      secretKey: TEST_KEY,
      idTag: "sandbox",
      checkoutUrl: (session) => `https://app.example/checkout/sandbox/${session.id}`,
    });
    const { subscription } = await subscribed(emulator, 900);
    const session = await api(emulator, "POST", "/v1/checkout/sessions", {
      mode: "payment",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "500",
      "line_items[0][quantity]": "1",
    });

    expect(String(subscription.id)).toMatch(/^sub_sandbox_[0-9a-f]{24}$/);
    expect(String(subscription.latest_invoice)).toMatch(/^in_sandbox_/);
    expect(String(session.body.id)).toMatch(/^cs_sandbox_/);
    expect(session.body.url).toBe(`https://app.example/checkout/sandbox/${session.body.id}`);
  });

  it("names Stripe's test-mode sessions cs_test_ by default", async () => {
    const { emulator } = emulatorAt(Date.UTC(2027, 0, 10));
    const session = await api(emulator, "POST", "/v1/checkout/sessions", {
      mode: "payment",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "500",
    });
    expect(String(session.body.id)).toMatch(/^cs_test_[0-9a-f]{24}$/);
    expect(session.body.url).toBe(`https://checkout.stripe.test/c/pay/${session.body.id}`);
  });
});
