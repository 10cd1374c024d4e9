import { createMemoryStore } from "@twinline/stripe-emulator";
import { describe, expect, it } from "vitest";
import { createEmulatedPayments } from "./emulated.ts";
import type { CheckoutItem, CreateCheckoutInput } from "./types.ts";

const at = new Date("2027-01-31T10:00:00Z");
const MINUTE = 60_000;

const plan: CheckoutItem = {
  name: "Monthly",
  description: "A month of chats",
  amountMinor: 1200,
  currency: "usd",
  priceId: null,
  recurring: { interval: "month", intervalCount: 1 },
};

const checkout = (overrides: Partial<CreateCheckoutInput> = {}): CreateCheckoutInput => ({
  mode: "subscription",
  userId: "user-1",
  email: "fan@example.com",
  item: plan,
  successUrl: "https://app.example/payment/success?session_id={CHECKOUT_SESSION_ID}",
  cancelUrl: "https://app.example/plans",
  metadata: { kind: "plan" },
  ...overrides,
});

/**
 * The sandbox's provider is the Stripe provider over the emulator (decision 0094 phase 2): the
 * official SDK's calls answered in-process, on the sandbox's clock, with its ids and card page.
 */
describe("the Stripe provider over the emulator", () => {
  const sandbox = () => createEmulatedPayments({ store: createMemoryStore(), now: () => at });

  it("opens a plan checkout for 35 minutes on the sandbox's card page (decision 0051)", async () => {
    const { payments } = sandbox();

    const created = await payments.createCheckoutSession(checkout());

    expect(created.sessionId).toMatch(/^cs_sandbox_/);
    expect(created.url).toBe(`https://app.example/checkout/sandbox/${created.sessionId}`);
    expect(created.expiresAt).toEqual(new Date(at.getTime() + 35 * MINUTE));
    expect(created.amountTotalMinor).toBe(1200);
  });

  it("keeps a package checkout open for a day", async () => {
    const { payments } = sandbox();

    const created = await payments.createCheckoutSession(
      checkout({ mode: "payment", item: { ...plan, recurring: null } }),
    );

    expect(created.expiresAt).toEqual(new Date(at.getTime() + 24 * 60 * MINUTE));
  });

  it("reads back what a buyer paid through the SDK, periods clamped at a month end", async () => {
    const { payments, emulator } = sandbox();
    const created = await payments.createCheckoutSession(checkout());

    await emulator.completeCheckout(created.sessionId);
    const session = await payments.retrieveCheckoutSession(created.sessionId);
    const subscription = await payments.retrieveSubscription(String(session?.subscriptionId));

    expect(session).toMatchObject({ status: "complete", paymentStatus: "paid", amountTotal: 1200 });
    expect(subscription).toMatchObject({
      status: "active",
      amountMinor: 1200,
      currentPeriodStart: at,
      currentPeriodEnd: new Date("2027-02-28T10:00:00Z"),
    });
    expect(subscription?.id).toMatch(/^sub_sandbox_/);
    const invoice = await payments.retrieveInvoice(String(subscription?.latestInvoiceId));
    expect(invoice).toMatchObject({
      status: "paid",
      amountPaid: 1200,
      billingReason: "subscription_create",
    });
  });

  it("refunds once per idempotency key and refuses more than is left, as Stripe", async () => {
    const { payments, emulator } = sandbox();
    const created = await payments.createCheckoutSession(
      checkout({ mode: "payment", item: { ...plan, recurring: null } }),
    );
    await emulator.completeCheckout(created.sessionId);
    const session = await payments.retrieveCheckoutSession(created.sessionId);
    const paymentId = String(session?.paymentIntentId);
    const input = { paymentId, amountMinor: 700, idempotencyKey: "refund-1", metadata: {} };

    const first = await payments.refund(input);
    const again = await payments.refund(input);

    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ amountMinor: 700, status: "succeeded" });
    await expect(payments.refund({ ...input, idempotencyKey: "refund-2" })).rejects.toThrow(
      /greater than/,
    );
  });

  it("answers null for an object it never made", async () => {
    const { payments } = sandbox();

    expect(await payments.retrieveCheckoutSession("cs_sandbox_missing")).toBeNull();
    expect(await payments.retrieveSubscription("sub_sandbox_missing")).toBeNull();
  });
});
