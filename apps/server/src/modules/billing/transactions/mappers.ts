import type {
  AdminCreditTransaction,
  AdminSubscriptionTransaction,
  Currency,
  SubscriptionHistoryEvent,
  UserTransaction,
} from "@twinline/contracts";
import type { PaymentRow, SubscriptionEventRow } from "../../../db/schema/index.ts";
import { toMajor } from "../../../lib/money.ts";
import { tookMoney } from "../refunds/refunds-ledger.ts";

/** What the operator's Refund button needs: money taken and not all given back. */
const isRefundable = (row: PaymentRow) => tookMoney(row) && row.refundedMinor < row.amountMinor;

/** What a payment took, gave back and took off, as every list of payments shows it. */
const paymentMoney = (row: PaymentRow) => ({
  amount: toMajor(row.amountMinor),
  currency: row.currency,
  status: row.status,
  refundedAmount: toMajor(row.refundedMinor),
  discount: toMajor(row.discountMinor),
  promotionCode: row.promotionCode,
});

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toUserTransaction(row: PaymentRow): UserTransaction {
  return {
    _id: row.id,
    kind: row.kind,
    transactionDate: row.transactionDate.toISOString(),
    credits: row.credits,
    ...paymentMoney(row),
    stripePaymentId: row.stripePaymentId ?? row.invoiceId,
    planName: row.kind === "subscription" ? row.itemName : null,
    metadata: {
      packageName: row.kind === "credits" ? row.itemName : null,
      invoiceNumber: row.invoiceNumber,
    },
    failureReason: failureReasonOf(row),
    withdrawnAt: typeof row.metadata.withdrawnAt === "string" ? row.metadata.withdrawnAt : null,
  };
}

/** The reason kept with a failed payment (failed-payments.ts, verify-payment.ts), or null. */
export const failureReasonOf = (row: PaymentRow): string | null =>
  typeof row.metadata.failureReason === "string" ? row.metadata.failureReason : null;

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

export function toAdminCredit(row: PaymentRow, user: PopulatedUser | null): AdminCreditTransaction {
  return {
    _id: row.id,
    transactionDate: row.transactionDate.toISOString(),
    userId: user,
    credits: row.credits,
    ...paymentMoney(row),
    refundable: isRefundable(row),
    packageId: row.packageId,
    stripePaymentId: row.stripePaymentId,
    metadata: { packageName: row.itemName, invoiceNumber: row.invoiceNumber },
    failureReason: failureReasonOf(row),
  };
}

export function toAdminSubscriptionPayment(
  row: PaymentRow,
  user: PopulatedUser | null,
): AdminSubscriptionTransaction {
  return {
    _id: row.id,
    transactionDate: row.transactionDate.toISOString(),
    userId: user,
    planId: row.planId ? { _id: row.planId, name: row.itemName } : null,
    planName: row.itemName,
    ...paymentMoney(row),
    refundable: isRefundable(row),
    stripePaymentId: row.stripePaymentId ?? row.invoiceId,
    invoiceId: row.invoiceId,
    credits: row.credits,
    failureReason: failureReasonOf(row),
  };
}
