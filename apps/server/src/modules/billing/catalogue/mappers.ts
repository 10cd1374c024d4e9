import type { CreditPackage, SubscriptionPlan } from "@twinline/contracts";
import type { CreditPackageRow, SubscriptionPlanRow } from "../../../db/schema/index.ts";
import { discountedMinor, toMajor } from "../../../lib/money.ts";

export function toCreditPackage(row: CreditPackageRow): CreditPackage {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    credits: row.credits,
    price: toMajor(row.priceMinor),
    currency: row.currency,
    discount: row.discountBasisPoints / 100,
    discountedPrice: toMajor(discountedMinor(row.priceMinor, row.discountBasisPoints)),
    isActive: row.isActive,
    stripeProductId: row.stripeProductId,
    stripePriceId: row.stripePriceId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toSubscriptionPlan(
  row: SubscriptionPlanRow,
  subscriberCount = 0,
): SubscriptionPlan {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    price: toMajor(row.priceMinor),
    currency: row.currency,
    interval: row.interval,
    intervalCount: row.intervalCount,
    features: row.features,
    isActive: row.isActive,
    credits: row.credits,
    trialDays: row.trialDays,
    stripeProductId: row.stripeProductId,
    stripePriceId: row.stripePriceId,
    subscriberCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
