import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  type AdminCreditTransactionsQuery,
  type AdminSubscriptionHistoryQuery,
  type AdminSubscriptionTransactionsQuery,
  adminCreditTransactionsResponseSchema,
  adminPaymentDetailsResponseSchema,
  adminRevenueResponseSchema,
  adminSubscriptionHistoryResponseSchema,
  adminSubscriptionTransactionsResponseSchema,
  BILLING_DEFAULTS,
} from "@twinline/contracts";
import { api } from "@/lib/api-client";

/** Page size of the three transaction screens (admin-side spec, section 9). */
export const ADMIN_TRANSACTIONS_PAGE_SIZE = BILLING_DEFAULTS.adminListLimit;

/** "all" and empty values are left out of the query (admin-side spec, section 5). */
function withoutAll(params: object) {
  const query: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === "" || value === "all") continue;
    query[key] = value as string | number;
  }
  return query;
}

export type RevenueKind = "credits" | "subscriptions";

export const transactionKeys = {
  credit: (p: AdminCreditTransactionsQuery) =>
    ["admin", "billing", "credit-transactions", p] as const,
  subscription: (p: AdminSubscriptionTransactionsQuery) =>
    ["admin", "billing", "subscription-transactions", p] as const,
  history: (p: AdminSubscriptionHistoryQuery) =>
    ["admin", "billing", "subscription-history", p] as const,
  revenue: (kind: RevenueKind) => ["admin", "billing", "revenue", kind] as const,
};

/** GET /api/admin/credit-transactions (dates as yyyy-MM-dd). */
export const creditTransactionsQuery = (params: AdminCreditTransactionsQuery, enabled = true) =>
  queryOptions({
    queryKey: transactionKeys.credit(params),
    queryFn: ({ signal }) =>
      api.get("/api/admin/credit-transactions", {
        signal,
        query: withoutAll(params),
        schema: adminCreditTransactionsResponseSchema,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** GET /api/admin/subscription-transactions. */
export const subscriptionTransactionsQuery = (
  params: AdminSubscriptionTransactionsQuery,
  enabled = true,
) =>
  queryOptions({
    queryKey: transactionKeys.subscription(params),
    queryFn: ({ signal }) =>
      api.get("/api/admin/subscription-transactions", {
        signal,
        query: withoutAll(params),
        schema: adminSubscriptionTransactionsResponseSchema,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** GET /api/admin/subscription-history. */
export const subscriptionHistoryQuery = (params: AdminSubscriptionHistoryQuery, enabled = true) =>
  queryOptions({
    queryKey: transactionKeys.history(params),
    queryFn: ({ signal }) =>
      api.get("/api/admin/subscription-history", {
        signal,
        query: withoutAll(params),
        schema: adminSubscriptionHistoryResponseSchema,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** GET /api/admin/revenue?kind=…: today, yesterday, this month and last month. */
export const revenueQuery = (kind: RevenueKind) =>
  queryOptions({
    queryKey: transactionKeys.revenue(kind),
    queryFn: async ({ signal }) =>
      (
        await api.get("/api/admin/revenue", {
          signal,
          query: { kind },
          schema: adminRevenueResponseSchema,
        })
      ).data,
  });

/** GET /api/admin/payments/{id}: one payment with its consent, refunds and withdrawal. */
export const paymentDetailsQuery = (paymentId: string) =>
  queryOptions({
    queryKey: ["admin", "billing", "payment", paymentId] as const,
    queryFn: async ({ signal }) =>
      (
        await api.get(`/api/admin/payments/${encodeURIComponent(paymentId)}`, {
          signal,
          schema: adminPaymentDetailsResponseSchema,
        })
      ).data,
  });
