import { PROMOTION_MESSAGES } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import type { PromotionCodeRow } from "../../../db/schema/index.ts";
import { checkPromotion, type PromotionTarget } from "./promotion-terms.ts";

const expiresAt = new Date("2026-12-01T00:00:00Z");
const code: PromotionCodeRow = {
  id: "00000000-0000-4000-8000-000000000003",
  code: "LAST10",
  kind: "percent",
  percentBasisPoints: 1_000,
  amountOffMinor: null,
  currency: null,
  appliesTo: "both",
  maxRedemptions: 3,
  expiresAt,
  isActive: true,
  stripeCouponId: null,
  stripePromotionCodeId: null,
  createdAt: new Date("2026-11-01T00:00:00Z"),
  updatedAt: new Date("2026-11-01T00:00:00Z"),
};
const pack: PromotionTarget = { kind: "package", amountMinor: 999, currency: "usd" };
const justBefore = new Date(expiresAt.getTime() - 1);

describe("whether a code applies at checkout", () => {
  it("applies a millisecond before its expiry and is refused as expired at the very instant", () => {
    expect(checkPromotion(code, pack, justBefore, null).discountMinor).toBe(100);
    expect(() => checkPromotion(code, pack, expiresAt, null)).toThrow(PROMOTION_MESSAGES.expired);
  });

  it("gives its last redemption to the fan who takes it, and refuses the next as used up", () => {
    const lastOne = { total: 2, mine: 0 };
    expect(checkPromotion(code, pack, justBefore, lastOne).discountMinor).toBe(100);
    const noneLeft = { total: 3, mine: 0 };
    expect(() => checkPromotion(code, pack, justBefore, noneLeft)).toThrow(
      PROMOTION_MESSAGES.usedUp,
    );
  });

  it("tells a fan who used it already so, before saying it is used up", () => {
    expect(() => checkPromotion(code, pack, justBefore, { total: 3, mine: 1 })).toThrow(
      PROMOTION_MESSAGES.alreadyUsed,
    );
  });
});
