import { type Currency, PROMOTION_MESSAGES, type PromotionCode } from "@twinline/contracts";
import type { PromotionCodeRow } from "../../../db/schema/index.ts";
import { percentOffMinor, toMajor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";

/** What a code is checked against: the purchase and its price before the code. */
export interface PromotionTarget {
  kind: "package" | "plan";
  amountMinor: number;
  currency: Currency;
}

/** A code that applies to a purchase: the row, and what it takes off (minor units). */
export interface AppliedPromotion {
  row: PromotionCodeRow;
  discountMinor: number;
}

const FIELD = { field: "promotionCode" };
const refuse = (message: string) => new HttpError(400, message, FIELD);

export function toPromotionCode(row: PromotionCodeRow, redemptions: number): PromotionCode {
  return {
    _id: row.id,
    code: row.code,
    kind: row.kind,
    percentOff: row.percentBasisPoints === null ? null : row.percentBasisPoints / 100,
    amountOff: row.amountOffMinor === null ? null : toMajor(row.amountOffMinor),
    currency: row.currency,
    appliesTo: row.appliesTo,
    maxRedemptions: row.maxRedemptions,
    redemptions,
    expiresAt: row.expiresAt.toISOString(),
    isActive: row.isActive,
    stripePromotionCodeId: row.stripePromotionCodeId,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * What a code takes off a price (docs/decisions/0083): a percentage rounds to the nearest minor
 * unit, a half up (lib/money.ts); an amount is taken as it is. Never the whole price.
 */
export function discountFor(row: PromotionCodeRow, priceMinor: number): number {
  return row.percentBasisPoints !== null
    ? percentOffMinor(priceMinor, row.percentBasisPoints)
    : (row.amountOffMinor ?? 0);
}

/**
 * What a checkout with a code sells, once its provider has made the session. Stripe computes the
 * discount itself from the coupon: a total one minor unit from ours is its rounding of a half
 * minor unit, the fan is charged that total, so that is what is sold (and the discount is what
 * it took off). Any other difference is not rounding: ours stands, and the payment's check
 * (fulfilment/verify-payment.ts) grants nothing on an amount that does not match it.
 */
export function saleAfterProviderRounding(
  ours: { amountMinor: number; discountMinor: number },
  providerTotalMinor: number | null,
): { amountMinor: number; discountMinor: number } {
  if (providerTotalMinor === null || Math.abs(providerTotalMinor - ours.amountMinor) !== 1) {
    return ours;
  }
  return {
    amountMinor: providerTotalMinor,
    discountMinor: ours.discountMinor - (providerTotalMinor - ours.amountMinor),
  };
}

/**
 * Whether a code applies to a purchase at `at`, checked in the order the fan's answer names the
 * refusals; its uses (`usage`) when counted. Answers what it takes off.
 */
export function checkPromotion(
  row: PromotionCodeRow | undefined,
  target: PromotionTarget,
  at: Date,
  usage: { total: number; mine: number } | null,
): AppliedPromotion {
  if (!row) throw refuse(PROMOTION_MESSAGES.unknown);
  if (!row.isActive) throw refuse(PROMOTION_MESSAGES.inactive);
  if (row.expiresAt <= at) throw refuse(PROMOTION_MESSAGES.expired);
  const wanted = target.kind === "package" ? "packages" : "plans";
  if (row.appliesTo !== "both" && row.appliesTo !== wanted) {
    throw refuse(PROMOTION_MESSAGES.wrongProduct);
  }
  if (row.currency !== null && row.kind === "amount" && row.currency !== target.currency) {
    throw refuse(PROMOTION_MESSAGES.wrongCurrency);
  }
  if (usage) {
    if (usage.mine > 0) throw refuse(PROMOTION_MESSAGES.alreadyUsed);
    if (row.maxRedemptions !== null && usage.total >= row.maxRedemptions) {
      throw refuse(PROMOTION_MESSAGES.usedUp);
    }
  }
  const discountMinor = discountFor(row, target.amountMinor);
  if (discountMinor >= target.amountMinor) throw refuse(PROMOTION_MESSAGES.zeroTotal);
  return { row, discountMinor };
}
