import { describe, expect, it } from "vitest";
import { SessionNotOpenError } from "./checkout-payments.ts";
import { api, emulatorAt } from "./test-api.ts";

async function openSession(emulator: ReturnType<typeof emulatorAt>["emulator"]) {
  const session = await api(emulator, "POST", "/v1/checkout/sessions", {
    mode: "payment",
    "line_items[0][price_data][unit_amount]": "1200",
    "line_items[0][price_data][currency]": "eur",
  });
  return String(session.body.id);
}

describe("two payers of one checkout session at once", () => {
  it("lets exactly one pay; the other is told the session is not open", async () => {
    const { emulator } = emulatorAt(Date.UTC(2027, 5, 1));
    const sessionId = await openSession(emulator);

    const outcomes = await Promise.allSettled([
      emulator.completeCheckout(sessionId),
      emulator.completeCheckout(sessionId),
    ]);

    expect(outcomes.filter((each) => each.status === "fulfilled")).toHaveLength(1);
    const [refused] = outcomes.filter((each) => each.status === "rejected");
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(SessionNotOpenError);
    const session = await api(emulator, "GET", `/v1/checkout/sessions/${sessionId}`);
    expect(session.body).toMatchObject({ status: "complete", payment_status: "paid" });
    const charges = await emulator.store.list("charge");
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amount: 1200, payment_intent: session.body.payment_intent });
  });
});

describe("a refund retried with its Idempotency-Key", () => {
  it("answers the first refund and refunds nothing twice", async () => {
    const { emulator } = emulatorAt(Date.UTC(2027, 5, 1));
    const sessionId = await openSession(emulator);
    await emulator.completeCheckout(sessionId);
    const session = await api(emulator, "GET", `/v1/checkout/sessions/${sessionId}`);
    const refund = () =>
      api(
        emulator,
        "POST",
        "/v1/refunds",
        { payment_intent: String(session.body.payment_intent), amount: "700" },
        { "idempotency-key": "refund-order-1" },
      );

    const first = await refund();
    const retried = await refund();

    expect(first.status).toBe(200);
    expect(retried.body).toEqual(first.body);
    const charge = await emulator.chargeOf(String(session.body.payment_intent));
    expect(charge).toMatchObject({ amount_refunded: 700, refunded: false });
    expect((charge.refunds as { data: unknown[] }).data).toHaveLength(1);
  });

  it("refuses, in Stripe's words, a second refund past what is left", async () => {
    const { emulator } = emulatorAt(Date.UTC(2027, 5, 1));
    const sessionId = await openSession(emulator);
    const { session } = await emulator.completeCheckout(sessionId);
    const intent = String(session.payment_intent);
    await emulator.refundInDashboard(intent);

    const again = await api(emulator, "POST", "/v1/refunds", { payment_intent: intent });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: "charge_already_refunded" });
  });
});

describe("the API's refusals", () => {
  it("answers 401 to a wrong key and Stripe's 404 to a missing object", async () => {
    const { emulator } = emulatorAt(Date.UTC(2027, 5, 1));
    const wrongKey = await emulator.handle({
      method: "GET",
      url: "/v1/balance",
      body: "",
      headers: { authorization: "Bearer sk_test_wrong_key_9999" },
    });
    expect(wrongKey.status).toBe(401);

    const missing = await api(emulator, "GET", "/v1/subscriptions/sub_missing");
    expect(missing).toEqual({
      status: 404,
      body: {
        error: {
          type: "invalid_request_error",
          code: "resource_missing",
          message: "No such subscription: 'sub_missing'",
        },
      },
    });
  });
});
