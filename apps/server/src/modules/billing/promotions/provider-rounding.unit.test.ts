import { describe, expect, it } from "vitest";
import { saleAfterProviderRounding } from "./promotions-service.ts";

describe("what a checkout with a code sells once the provider computed its total", () => {
  const ours = { amountMinor: 885, discountMinor: 127 };

  it("takes the provider's total one minor unit from ours (its rounding of a half), either way", () => {
    expect(saleAfterProviderRounding(ours, 886)).toEqual({ amountMinor: 886, discountMinor: 126 });
    expect(saleAfterProviderRounding(ours, 884)).toEqual({ amountMinor: 884, discountMinor: 128 });
  });

  it("keeps ours when the provider agrees, says nothing, or differs by more than rounding", () => {
    expect(saleAfterProviderRounding(ours, 885)).toBe(ours);
    expect(saleAfterProviderRounding(ours, null)).toBe(ours);
    // Not rounding (a price changed under the session): the payment's check refuses it.
    expect(saleAfterProviderRounding(ours, 887)).toBe(ours);
    expect(saleAfterProviderRounding(ours, 1012)).toBe(ours);
  });
});
