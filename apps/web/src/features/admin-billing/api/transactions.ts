import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  type AdminCreditTransactionsQuery,
  type AdminSubscriptionHistoryQuery,
  type AdminSubscriptionTransactionsQuery,
  BILLING_DEFAULTS,
  routes,
} from "@twinline/contracts";
import { callRoute } from "@/lib/api/route-client";

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
      callRoute(routes.adminBilling.creditTransactions, {
        signal,
        query: withoutAll(params) as AdminCreditTransactionsQuery,
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
      callRoute(routes.adminBilling.subscriptionTransactions, {
        signal,
        query: withoutAll(params) as AdminSubscriptionTransactionsQuery,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** GET /api/admin/subscription-history. */
export const subscriptionHistoryQuery = (params: AdminSubscriptionHistoryQuery, enabled = true) =>
  queryOptions({
    queryKey: transactionKeys.history(params),
    queryFn: ({ signal }) =>
      callRoute(routes.adminBilling.subscriptionHistory, {
        signal,
        query: withoutAll(params) as AdminSubscriptionHistoryQuery,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** GET /api/admin/revenue?kind=…: today, yesterday, this month and last month. */
export const revenueQuery = (kind: RevenueKind) =>
  queryOptions({
    queryKey: transactionKeys.revenue(kind),
    queryFn: async ({ signal }) =>
      (await callRoute(routes.adminBilling.revenue, { signal, query: { kind } })).data,
  });

/** GET /api/admin/payments/{id}: one payment with its consent, refunds and withdrawal. */
export const paymentDetailsQuery = (paymentId: string) =>
  queryOptions({
    queryKey: ["admin", "billing", "payment", paymentId] as const,
    queryFn: async ({ signal }) =>
      (await callRoute(routes.adminBilling.payment, { signal, params: { id: paymentId } })).data,
  });
