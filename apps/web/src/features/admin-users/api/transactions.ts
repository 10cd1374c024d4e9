import { z } from "zod";
import { api } from "@/lib/api-client";
import type {
  CreditTransactionRow,
  SubscriptionTransactionRow,
} from "../hooks/use-user-transactions";

// TEMPORARY: the answers' shapes from the spec, until billing-server's contracts land.
const creditRow = z.object({
  _id: z.string(),
  transactionDate: z.string(),
  credits: z.number(),
  amount: z.number(),
  status: z.string(),
  stripePaymentId: z.string().nullable().optional(),
});
const subscriptionRow = z.object({
  _id: z.string(),
  transactionDate: z.string(),
  planId: z.object({ name: z.string() }).nullable().optional(),
  planName: z.string().nullable().optional(),
  amount: z.number(),
  status: z.string(),
  stripePaymentId: z.string().nullable().optional(),
  invoiceId: z.string().nullable().optional(),
});
const creditList = z.object({ data: z.array(creditRow) });
const subscriptionList = z.object({ data: z.array(subscriptionRow) });

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
    schema: creditList,
  });
  return body.data.map((r) => ({
    _id: r._id,
    transactionDate: r.transactionDate,
    credits: r.credits,
    amount: r.amount,
    status: r.status,
    transactionId: r.stripePaymentId ?? null,
  }));
}

/** GET /api/admin/users/{userId}/subscription-transactions. */
export async function fetchUserSubscriptionTransactions(
  userId: string,
  signal?: AbortSignal,
): Promise<SubscriptionTransactionRow[]> {
  const body = await api.get(
    `/api/admin/users/${encodeURIComponent(userId)}/subscription-transactions`,
    { signal, schema: subscriptionList },
  );
  return body.data.map((r) => ({
    _id: r._id,
    transactionDate: r.transactionDate,
    planName: r.planId?.name ?? r.planName ?? null,
    amount: r.amount,
    status: r.status,
    transactionId: r.stripePaymentId ?? r.invoiceId ?? null,
  }));
}
