import { describe, expect, it } from "vitest";
import type { InvoiceInfo } from "../../../providers/payments/index.ts";
import { planChangeKind, prorationShown } from "./plan-change-answer.ts";

const invoice = (amounts: Pick<InvoiceInfo, "totalMinor" | "amountPaid" | "creditAppliedMinor">) =>
  ({
    id: "in_1",
    number: null,
    status: "paid",
    subscriptionId: "sub_1",
    amountDue: amounts.amountPaid,
    subscriptionMetadata: {},
    currency: "usd",
    billingReason: "subscription_update",
    paymentId: null,
    periodStart: null,
    periodEnd: null,
    created: new Date("2026-11-27T12:00:00Z"),
    attemptCount: 1,
    ...amounts,
  }) satisfies InvoiceInfo;

describe("a plan change's proration as the fan reads it", () => {
  it("shows an upgrade's charge of one cent as 0.01, not rounded away", () => {
    const shown = prorationShown(invoice({ totalMinor: 1, amountPaid: 1, creditAppliedMinor: 0 }));
    expect(shown).toEqual({ proratedAmount: 0.01, paidFromAccountCredit: 0 });
  });

  it("shows what account credit paid: the card is charged only the rest", () => {
    const shown = prorationShown(
      invoice({ totalMinor: 1_050, amountPaid: 550, creditAppliedMinor: 500 }),
    );
    expect(shown).toEqual({ proratedAmount: 5.5, paidFromAccountCredit: 5 });
  });

  it("shows a downgrade as a credit (negative) with no account credit spent", () => {
    const shown = prorationShown(
      invoice({ totalMinor: -333, amountPaid: 0, creditAppliedMinor: 0 }),
    );
    expect(shown).toEqual({ proratedAmount: -3.33, paidFromAccountCredit: 0 });
  });

  it("shows nothing charged when the provider made no invoice", () => {
    expect(prorationShown(null)).toEqual({ proratedAmount: 0, paidFromAccountCredit: 0 });
  });

  it("names a change by price: dearer is an upgrade, a same-price swap is a change", () => {
    expect(planChangeKind(999, 1_999)).toBe("upgrade");
    expect(planChangeKind(1_999, 999)).toBe("downgrade");
    expect(planChangeKind(999, 999)).toBe("change");
  });
});
