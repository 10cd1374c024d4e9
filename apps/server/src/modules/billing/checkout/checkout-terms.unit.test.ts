import { CONSENT_MESSAGES, CONSENT_VERSIONS } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import type { CreditPackageRow, SubscriptionPlanRow } from "../../../db/schema/index.ts";
import type { PaymentsProvider } from "../../../providers/payments/index.ts";
import type { AppliedPromotion } from "../promotions/promotions-service.ts";
import { packageCheckoutOf, packageTarget, planCheckoutOf } from "./checkout-terms.ts";

const at = new Date("2026-11-27T12:00:00Z");
const pack: CreditPackageRow = {
  id: "00000000-0000-4000-8000-000000000001",
  name: "Half Pack",
  description: "",
  credits: 120,
  priceMinor: 999,
  currency: "usd",
  discountBasisPoints: 5_000,
  isActive: true,
  stripeProductId: null,
  stripePriceId: null,
  createdAt: at,
  updatedAt: at,
  deletedAt: null,
};
const plan: SubscriptionPlanRow = {
  id: "00000000-0000-4000-8000-000000000002",
  name: "Monthly",
  description: "Every month",
  priceMinor: 999,
  currency: "usd",
  interval: "month",
  intervalCount: 1,
  features: [],
  isActive: true,
  credits: 0,
  trialDays: 7,
  stripeProductId: null,
  stripePriceId: null,
  createdAt: at,
  updatedAt: at,
  deletedAt: null,
};
const sandbox = { mode: "sandbox" } as PaymentsProvider;
const ticked = (version: string) => ({ version, ipAddress: "203.0.113.9" });
const code = (discountMinor: number) => ({
  applied: { row: { id: "code", code: "SAVE" }, discountMinor } as AppliedPromotion,
  target: packageTarget(pack),
});

describe("what a checkout sells and records", () => {
  it("a package at half of $9.99 charges $5.00 (the half cent rounds up) and says so", () => {
    const of = packageCheckoutOf(pack, "fan", ticked(CONSENT_VERSIONS.credits), null);
    expect(of.item(sandbox)).toMatchObject({ amountMinor: 500, description: "120 credits" });
    expect(of.recorded).toMatchObject({ amountMinor: 500, credits: 120 });
    expect(of.consent.text).toContain("120 credits ($5.00)");
  });

  it("a code lowers what is recorded and agreed to, not the item's list price or credits", () => {
    const of = packageCheckoutOf(pack, "fan", ticked(CONSENT_VERSIONS.credits), code(125));
    expect(of.item(sandbox).amountMinor).toBe(500);
    expect(of.recorded).toMatchObject({ amountMinor: 375, credits: 120 });
    expect(of.consent.text).toContain("($3.75)");
  });

  it("refuses a consent ticked under another version of the text", () => {
    expect(() => packageCheckoutOf(pack, "fan", ticked("credits-old"), null)).toThrow(
      CONSENT_MESSAGES.stale,
    );
  });

  it("a plan with a trial records $0 and names the day of the first charge", () => {
    const of = planCheckoutOf(plan, "fan", ticked(CONSENT_VERSIONS.plan), null, 7, at.getTime());
    expect(of.recorded.amountMinor).toBe(0);
    expect(of.trialDays).toBe(7);
    expect(of.consent.text).toContain("when the trial ends on Dec 4, 2026 (UTC)");
  });

  it("a plan without a trial records its price less the code", () => {
    const of = planCheckoutOf(plan, "fan", ticked(CONSENT_VERSIONS.plan), code(100), 0, 0);
    expect(of.recorded.amountMinor).toBe(899);
    expect(of.consent.text).toBe(
      "$9.99 charged every month until you cancel; cancel any time in your dashboard.",
    );
  });
});
