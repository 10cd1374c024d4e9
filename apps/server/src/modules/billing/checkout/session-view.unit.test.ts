import { describe, expect, it } from "vitest";
import type { CheckoutSessionRow } from "../../../db/schema/index.ts";
import { sessionView } from "./session-view.ts";

const expiresAt = new Date("2026-11-28T09:00:00Z");
const row: CheckoutSessionRow = {
  id: "00000000-0000-4000-8000-000000000003",
  sessionId: "cs_sandbox_1",
  provider: "sandbox",
  mode: "payment",
  userId: "00000000-0000-4000-8000-000000000004",
  packageId: null,
  planId: null,
  priceId: null,
  itemName: "Pack",
  description: "",
  amountMinor: 375,
  currency: "usd",
  credits: 120,
  promotionCodeId: null,
  promotionCode: "SAVE",
  discountMinor: 125,
  status: "open",
  paymentStatus: "unpaid",
  url: "https://twinline.example/checkout/sandbox/cs_sandbox_1",
  successUrl: "https://twinline.example/payment/success?session_id={CHECKOUT_SESSION_ID}",
  cancelUrl: "https://twinline.example/payment/cancel",
  fulfilledAt: null,
  createdAt: new Date("2026-11-27T09:00:00Z"),
  expiresAt,
};

describe("a checkout session as its owner sees it", () => {
  it("is open up to its expiry and expired a millisecond after", () => {
    expect(sessionView(row, expiresAt).status).toBe("open");
    expect(sessionView(row, new Date(expiresAt.getTime() + 1)).status).toBe("expired");
  });

  it("shows the price before the code, the code's discount and what is charged", () => {
    expect(sessionView(row, expiresAt)).toMatchObject({
      amount: 3.75,
      amountBeforeDiscount: 5,
      discount: 1.25,
      successUrl: "https://twinline.example/payment/success?session_id=cs_sandbox_1",
    });
  });

  it("a closed session keeps its status whatever the time", () => {
    const paid = { ...row, status: "complete" as const, paymentStatus: "paid" };
    expect(sessionView(paid, new Date(expiresAt.getTime() + 1))).toMatchObject({
      status: "complete",
      paymentStatus: "paid",
    });
  });
});
