import { BILLING_MESSAGES } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { newPackageRow, packageChanges, planChanges } from "./catalogue-inputs.ts";
import { packageCharge } from "./catalogue-kinds.ts";

describe("an admin's catalogue form as rows", () => {
  it("keeps a price and a discount with two decimals exact (19.99 at 12.5%)", () => {
    const row = newPackageRow("id", {
      name: "Pack",
      description: "",
      credits: 100,
      price: 19.99,
      currency: "usd",
      discount: 12.5,
      isActive: true,
    });
    expect(row).toMatchObject({ priceMinor: 1999, discountBasisPoints: 1250 });
    // 1999 x 0.875 = 1749.125: Stripe is asked for $17.49.
    expect(packageCharge({ priceMinor: 1999, discountBasisPoints: 1250 })).toBe(1749);
  });

  it("charges a half cent rounded up: $9.99 at half price is $5.00", () => {
    expect(packageCharge({ priceMinor: 999, discountBasisPoints: 5_000 })).toBe(500);
  });

  it("an edit changes only the fields sent: a price edit keeps the description", () => {
    expect(packageChanges({ name: "Pack", price: 4.1 })).toEqual({ name: "Pack", priceMinor: 410 });
  });

  it("a plan's billing period cannot move once created; the same period may be sent again", () => {
    const current = { interval: "month" as const, intervalCount: 1 };
    expect(() => planChanges(current, { name: "Plan", interval: "year" })).toThrow(
      BILLING_MESSAGES.intervalFixed,
    );
    expect(() => planChanges(current, { name: "Plan", intervalCount: 3 })).toThrow(
      BILLING_MESSAGES.intervalFixed,
    );
    expect(planChanges(current, { name: "Plan", interval: "month", trialDays: 0 })).toEqual({
      name: "Plan",
      trialDays: 0,
    });
  });
});
