import { describe, expect, it } from "vitest";
import type { Json } from "./json.ts";
import { api, emulatorAt, priceOf, subscribed } from "./test-api.ts";

const seconds = (ms: number) => Math.floor(ms / 1000);
const itemOf = (subscription: Json) => (subscription.items as { data: Json[] }).data[0] as Json;

describe("a price change in the middle of a period", () => {
  const start = Date.UTC(2027, 3, 1); // April: 30 days
  const halfway = Date.UTC(2027, 3, 16);

  it("invoices each half-cent part of the proration rounded on its own", async () => {
    const { emulator, clock } = emulatorAt(start);
    const { product, subscription } = await subscribed(emulator, 500);
    const dearer = await priceOf(emulator, String(product.body.id), 999);
    clock.ms = halfway;

    const changed = await api(emulator, "POST", `/v1/subscriptions/${subscription.id}`, {
      "items[0][id]": String(itemOf(subscription).id),
      "items[0][price]": String(dearer.id),
      proration_behavior: "always_invoice",
    });

    expect(changed.status).toBe(200);
    const invoice = await api(emulator, "GET", `/v1/invoices/${changed.body.latest_invoice}`);
    // 999 x 1/2 = 499.5 -> 500, less 500 x 1/2 = 250: 250 charged now.
    expect(invoice.body).toMatchObject({
      billing_reason: "subscription_update",
      total: 250,
      amount_paid: 250,
    });
    expect((itemOf(changed.body).price as Json).id).toBe(dearer.id);
  });

  it("credits a downgrade to the balance and takes it off the next invoice", async () => {
    const { emulator, clock } = emulatorAt(start);
    const { product, subscription } = await subscribed(emulator, 999);
    const cheaper = await priceOf(emulator, String(product.body.id), 500);
    clock.ms = halfway;

    await api(emulator, "POST", `/v1/subscriptions/${subscription.id}`, {
      "items[0][price]": String(cheaper.id),
      proration_behavior: "always_invoice",
    });
    const customer = await api(emulator, "GET", `/v1/customers/${subscription.customer}`);
    expect(customer.body.balance).toBe(-250);

    const { invoice } = await emulator.renew(String(subscription.id));
    expect(invoice).toMatchObject({ total: 500, amount_paid: 250, ending_balance: 0 });
  });

  it("previews the same proration it would invoice", async () => {
    const { emulator, clock } = emulatorAt(start);
    const { product, subscription } = await subscribed(emulator, 500);
    const dearer = await priceOf(emulator, String(product.body.id), 999);
    clock.ms = halfway;

    const preview = await api(emulator, "POST", "/v1/invoices/create_preview", {
      subscription: String(subscription.id),
      "subscription_details[items][0][price]": String(dearer.id),
    });
    expect(preview.body).toMatchObject({ total: 250, amount_due: 250 });
  });
});

describe("a renewal at a month's end", () => {
  it("keeps the 31st: Jan 31, Feb 28, Mar 31", async () => {
    const { emulator } = emulatorAt(Date.UTC(2027, 0, 31, 12));
    const { subscription } = await subscribed(emulator, 900);
    expect(itemOf(subscription).current_period_end).toBe(seconds(Date.UTC(2027, 1, 28, 12)));

    const first = await emulator.renew(String(subscription.id));
    expect(itemOf(first.subscription)).toMatchObject({
      current_period_start: seconds(Date.UTC(2027, 1, 28, 12)),
      current_period_end: seconds(Date.UTC(2027, 2, 31, 12)),
    });
    expect(first.invoice).toMatchObject({
      billing_reason: "subscription_cycle",
      period_start: seconds(Date.UTC(2027, 1, 28, 12)),
      amount_paid: 900,
    });
  });

  it("ends February on the 29th in a leap year", async () => {
    const { emulator } = emulatorAt(Date.UTC(2028, 0, 31));
    const { subscription } = await subscribed(emulator, 900);
    expect(itemOf(subscription).current_period_end).toBe(seconds(Date.UTC(2028, 1, 29)));
  });

  it("bills the next period on a failed renewal, and a later renewal pays that invoice", async () => {
    const { emulator } = emulatorAt(Date.UTC(2027, 0, 31));
    const { subscription } = await subscribed(emulator, 900);
    const failed = await emulator.failRenewal(String(subscription.id));
    expect(failed.subscription.status).toBe("past_due");
    expect(failed.invoice).toMatchObject({
      status: "open",
      amount_remaining: 900,
      period_start: seconds(Date.UTC(2027, 1, 28)),
      period_end: seconds(Date.UTC(2027, 2, 31)),
    });
    expect((await emulator.failRenewal(String(subscription.id))).subscription.status).toBe(
      "unpaid",
    );

    const paid = await emulator.renew(String(subscription.id));
    expect(paid.invoice).toMatchObject({ id: failed.invoice.id, status: "paid", attempt_count: 3 });
    expect(paid.subscription.status).toBe("active");
  });
});
