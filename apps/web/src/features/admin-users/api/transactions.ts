import { type AdminUserTransactionSortField, routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api/route-client";
import type {
  CreditTransactionRow,
  SubscriptionTransactionRow,
} from "../hooks/use-user-transactions";

/** One page of a user's transactions as the server searched, sorted and paged them. */
export interface UserTransactionsParams {
  page: number;
  limit: number;
  sortBy: AdminUserTransactionSortField;
  sortOrder: 1 | -1;
  /** Part of an id, a transaction id, a status or a plan name; "" for all. */
  search: string;
}

export interface TransactionsPage<T> {
  rows: T[];
  total: number;
  pages: number;
}

export const userTransactionKeys = {
  credits: (userId: string, params?: UserTransactionsParams) =>
    ["admin", "users", "detail", userId, "transactions", ...(params ? [params] : [])] as const,
  subscriptions: (userId: string, params?: UserTransactionsParams) =>
    [
      "admin",
      "users",
      "detail",
      userId,
      "subscription-transactions",
      ...(params ? [params] : []),
    ] as const,
};

const queryOf = (params: UserTransactionsParams) => ({
  page: params.page,
  limit: params.limit,
  sortBy: params.sortBy,
  sortOrder: params.sortOrder,
  search: params.search.trim() || undefined,
});

/** GET /api/admin/users/{userId}/transactions: one page. */
export async function fetchUserCreditTransactions(
  userId: string,
  params: UserTransactionsParams,
  signal?: AbortSignal,
): Promise<TransactionsPage<CreditTransactionRow>> {
  const body = await callRoute(routes.adminBilling.userTransactions, {
    signal,
    params: { userId },
    query: queryOf(params),
  });
  return {
    rows: body.data.map((r) => ({
      _id: r._id,
      transactionDate: r.transactionDate,
      credits: r.credits,
      amount: r.amount,
      currency: r.currency,
      status: r.status,
      failureReason: r.failureReason ?? null,
      refundedAmount: r.refundedAmount,
      refundable: r.refundable ?? (r.status === "success" && r.refundedAmount < r.amount),
      transactionId: r.stripePaymentId ?? null,
    })),
    total: body.pagination.total,
    pages: body.pagination.pages,
  };
}

/** GET /api/admin/users/{userId}/subscription-transactions: one page. */
export async function fetchUserSubscriptionTransactions(
  userId: string,
  params: UserTransactionsParams,
  signal?: AbortSignal,
): Promise<TransactionsPage<SubscriptionTransactionRow>> {
  const body = await callRoute(routes.adminBilling.userSubscriptionTransactions, {
    signal,
    params: { userId },
    query: queryOf(params),
  });
  return {
    rows: body.data.map((r) => ({
      _id: r._id,
      transactionDate: r.transactionDate,
      planName: r.planId?.name ?? r.planName ?? null,
      amount: r.amount,
      currency: r.currency,
      status: r.status,
      failureReason: r.failureReason ?? null,
      refundedAmount: r.refundedAmount,
      refundable: r.refundable ?? (r.status === "success" && r.refundedAmount < r.amount),
      transactionId: r.stripePaymentId ?? r.invoiceId ?? null,
    })),
    total: body.pagination.total,
    pages: body.pagination.pages,
  };
}
