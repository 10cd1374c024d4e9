import { keepPreviousData, useQuery } from "@tanstack/react-query";
import {
  fetchUserCreditTransactions,
  fetchUserSubscriptionTransactions,
  type TransactionsPage,
  type UserTransactionsParams,
  userTransactionKeys,
} from "../api/transactions";

/** A payment of one user, as the transaction tabs show it. */
interface PaymentRow {
  _id: string;
  transactionDate: string;
  amount: number;
  currency: string;
  status: string;
  failureReason: string | null;
  transactionId: string | null;
  /** Given back so far (refunds and disputes), in the payment's currency. */
  refundedAmount: number;
  /** Money left to give back (a success, or a failed payment that was charged anyway). */
  refundable: boolean;
}

/** A credit purchase of one user, as the Credit Transactions tab shows it. */
export interface CreditTransactionRow extends PaymentRow {
  credits: number;
}

/** A subscription payment of one user, as the Subscription Transactions tab shows it. */
export interface SubscriptionTransactionRow extends PaymentRow {
  planName: string | null;
}

export interface TransactionsState<T> {
  rows: T[];
  total: number;
  pages: number;
  isPending: boolean;
}

/**
 * One page of a user's transactions, searched, sorted and paged on the server. Load failures stay
 * silent (admin-side spec, section 8): the tab shows its empty state. The previous page stays
 * while the next loads.
 */
function useTransactionsPage<T>(
  queryKey: readonly unknown[],
  fetchPage: (signal: AbortSignal) => Promise<TransactionsPage<T>>,
): TransactionsState<T> {
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => fetchPage(signal),
    placeholderData: keepPreviousData,
  });
  return {
    rows: query.data?.rows ?? [],
    total: query.data?.total ?? 0,
    pages: query.data?.pages ?? 0,
    isPending: query.isPending,
  };
}

/** The user's credit purchases (GET /api/admin/users/{userId}/transactions). */
export function useUserCreditTransactions(
  userId: string,
  params: UserTransactionsParams,
): TransactionsState<CreditTransactionRow> {
  return useTransactionsPage(userTransactionKeys.credits(userId, params), (signal) =>
    fetchUserCreditTransactions(userId, params, signal),
  );
}

/** The user's subscription payments (.../subscription-transactions). */
export function useUserSubscriptionTransactions(
  userId: string,
  params: UserTransactionsParams,
): TransactionsState<SubscriptionTransactionRow> {
  return useTransactionsPage(userTransactionKeys.subscriptions(userId, params), (signal) =>
    fetchUserSubscriptionTransactions(userId, params, signal),
  );
}
