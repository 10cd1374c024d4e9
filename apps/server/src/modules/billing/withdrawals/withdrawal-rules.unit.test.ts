import { WITHDRAWAL_MESSAGES, WITHDRAWAL_WINDOW_MS } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import type { PaymentRow } from "../../../db/schema/index.ts";
import { refuseUnlessWithdrawable } from "./withdrawal-rules.ts";

const paidAt = new Date("2026-11-01T10:00:00Z");
const payment: PaymentRow = {
  id: "00000000-0000-4000-8000-000000000005",
  seq: 1,
  kind: "credits",
  userId: "00000000-0000-4000-8000-000000000006",
  status: "success",
  amountMinor: 999,
  currency: "usd",
  credits: 100,
  packageId: null,
  planId: null,
  subscriptionId: null,
  itemName: "Pack",
  provider: "sandbox",
  stripePaymentId: "pi_sandbox_1",
  invoiceId: null,
  invoiceNumber: null,
  checkoutSessionId: null,
  sourceKey: "checkout:cs_sandbox_1",
  discountMinor: 0,
  promotionCode: null,
  refundedMinor: 0,
  transactionDate: paidAt,
  metadata: {},
};
const lastMoment = new Date(paidAt.getTime() + WITHDRAWAL_WINDOW_MS);

describe("who may withdraw from a purchase, and until when", () => {
  it("allows the 14th day's last millisecond and refuses the one after", () => {
    expect(() => refuseUnlessWithdrawable(payment, lastMoment)).not.toThrow();
    expect(() => refuseUnlessWithdrawable(payment, new Date(lastMoment.getTime() + 1))).toThrow(
      WITHDRAWAL_MESSAGES.tooLate,
    );
  });

  it("refuses a purchase that took no money: failed, free, or refunded already", () => {
    for (const unpaid of [
      { ...payment, status: "failed" as const },
      { ...payment, amountMinor: 0 },
      { ...payment, status: "refunded" as const },
    ]) {
      expect(() => refuseUnlessWithdrawable(unpaid, paidAt)).toThrow(
        WITHDRAWAL_MESSAGES.notWithdrawable,
      );
    }
  });
});
