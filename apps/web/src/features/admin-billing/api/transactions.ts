import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/api-client";
import {
  adminCreditTransactionsResponseSchema,
  adminSubscriptionTransactionsResponseSchema,
  type historyQuerySchema,
  revenueResponseSchema,
  subscriptionHistoryResponseSchema,
  type transactionsQuerySchema,
} from "./schemas";

export type TransactionsParams = z.output<typeof transactionsQuerySchema>;
export type HistoryParams = z.output<typeof historyQuerySchema>;

/** Page size of the three transaction screens (admin-side spec, section 9). */
export const ADMIN_TRANSACTIONS_PAGE_SIZE = 10;

/** "all" is left out of the query (admin-side spec, section 5). */
function withoutAll<T extends Record<string, unknown>>(params: T) {
  const query: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === "" || value === "all") continue;
    query[key] = value as string | number;
  }
  return query;
}

/** A yyyy-MM-dd day as the ISO instant where it starts (or, for `end`, where it ends), local time. */
export function dayToIso(day: string | undefined, end = false): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T${end ? "23:59:59.999" : "00:00:00"}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export const transactionKeys = {
  credit: (p: TransactionsParams) => ["admin", "billing", "credit-transactions", p] as const,
  subscription: (p: TransactionsParams) =>
    ["admin", "billing", "subscription-transactions", p] as const,
  history: (p: HistoryParams) => ["admin", "billing", "subscription-history", p] as const,
  revenue: ["admin", "dashboard", "metrics", "revenue"] as const,
};

/** GET /api/admin/credit-transactions (dates as yyyy-MM-dd). */
export const creditTransactionsQuery = (params: TransactionsParams, enabled = true) =>
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

/** GET /api/admin/subscription-transactions (dates as ISO instants). */
export const subscriptionTransactionsQuery = (params: TransactionsParams, enabled = true) =>
  queryOptions({
    queryKey: transactionKeys.subscription(params),
    queryFn: ({ signal }) =>
      api.get("/api/admin/subscription-transactions", {
        signal,
        query: withoutAll({
          ...params,
          startDate: dayToIso(params.startDate),
          endDate: dayToIso(params.endDate, true),
        }),
        schema: adminSubscriptionTransactionsResponseSchema,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** GET /api/admin/subscription-history (dates as ISO instants). */
export const subscriptionHistoryQuery = (params: HistoryParams, enabled = true) =>
  queryOptions({
    queryKey: transactionKeys.history(params),
    queryFn: ({ signal }) =>
      api.get("/api/admin/subscription-history", {
        signal,
        query: withoutAll({
          ...params,
          startDate: dayToIso(params.startDate),
          endDate: dayToIso(params.endDate, true),
        }),
        schema: subscriptionHistoryResponseSchema,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** The four revenue figures of GET /api/admin/dashboard/metrics. */
export const revenueQuery = () =>
  queryOptions({
    queryKey: transactionKeys.revenue,
    queryFn: async ({ signal }) =>
      (await api.get("/api/admin/dashboard/metrics", { signal, schema: revenueResponseSchema }))
        .data,
  });
