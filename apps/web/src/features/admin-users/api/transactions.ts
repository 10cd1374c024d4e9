import {
  adminUserCreditTransactionsResponseSchema,
  adminUserSubscriptionTransactionsResponseSchema,
} from "@twinline/contracts";
import { api } from "@/lib/api-client";
import type {
  CreditTransactionRow,
  SubscriptionTransactionRow,
} from "../hooks/use-user-transactions";

export const userTransactionKeys = {
  credits: (userId: string) => ["admin", "users", "detail", userId, "transactions"] as const,
  subscriptions: (userId: string) =>
    ["admin", "users", "detail", userId, "subscription-transactions"] as const,
};

/** GET /api/admin/users/{userId}/transactions. */
export async function fetchUserCreditTransactions(
  userId: string,
  signal?: AbortSignal,
): Promise<CreditTransactionRow[]> {
  const body = await api.get(`/api/admin/users/${encodeURIComponent(userId)}/transactions`, {
    signal,
    schema: adminUserCreditTransactionsResponseSchema,
  });
  return body.data.map((r) => ({
    _id: r._id,
    transactionDate: r.transactionDate,
    credits: r.credits,
    amount: r.amount,
    status: r.status,
    transactionId: r.stripePaymentId ?? null,
    refundedAmount: r.refundedAmount,
    currency: r.currency,
  }));
}

/** GET /api/admin/users/{userId}/subscription-transactions. */
export async function fetchUserSubscriptionTransactions(
  userId: string,
  signal?: AbortSignal,
): Promise<SubscriptionTransactionRow[]> {
  const body = await api.get(
    `/api/admin/users/${encodeURIComponent(userId)}/subscription-transactions`,
    { signal, schema: adminUserSubscriptionTransactionsResponseSchema },
  );
  return body.data.map((r) => ({
    _id: r._id,
    transactionDate: r.transactionDate,
    planName: r.planId?.name ?? r.planName ?? null,
    amount: r.amount,
    status: r.status,
    transactionId: r.stripePaymentId ?? r.invoiceId ?? null,
    refundedAmount: r.refundedAmount,
    currency: r.currency,
  }));
}
