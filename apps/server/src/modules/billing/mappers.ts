import type {
  CreditPackage,
  Currency,
  SubscriptionHistoryEvent,
  SubscriptionPlan,
  UserTransaction,
} from "@twinline/contracts";
import type {
  CreditPackageRow,
  PaymentRow,
  SubscriptionEventRow,
  SubscriptionPlanRow,
} from "../../db/schema/index.ts";
import { discountedMinor, toMajor } from "./money.ts";

const iso = (date: Date | null) => (date ? date.toISOString() : null);

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
    stripeProductId: row.stripeProductId,
    stripePriceId: row.stripePriceId,
    subscriberCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toUserTransaction(row: PaymentRow): UserTransaction {
  return {
    _id: row.id,
    kind: row.kind,
    transactionDate: row.transactionDate.toISOString(),
    credits: row.credits,
    amount: toMajor(row.amountMinor),
    currency: row.currency,
    status: row.status,
    refundedAmount: toMajor(row.refundedMinor),
    stripePaymentId: row.stripePaymentId ?? row.invoiceId,
    planName: row.kind === "subscription" ? row.itemName : null,
    metadata: {
      packageName: row.kind === "credits" ? row.itemName : null,
      invoiceNumber: row.invoiceNumber,
    },
  };
}

export interface PopulatedUser {
  _id: string;
  name: string;
  email: string;
  profileImage: string | null;
}

export function toHistoryEvent(
  row: SubscriptionEventRow,
  user: PopulatedUser | null,
): SubscriptionHistoryEvent {
  return {
    _id: row.id,
    timestamp: row.timestamp.toISOString(),
    userId: user,
    planId: row.planId ? { _id: row.planId, name: row.planName } : null,
    eventType: row.eventType,
    status: row.status,
    startDate: iso(row.startDate),
    endDate: iso(row.endDate),
    amount: toMajor(row.amountMinor),
    currency: row.currency as Currency,
    autoRenew: row.autoRenew,
    stripeSubscriptionId: row.providerSubscriptionId,
  };
}
