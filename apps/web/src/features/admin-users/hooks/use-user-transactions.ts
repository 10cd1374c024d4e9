import { useQuery } from "@tanstack/react-query";
import {
  fetchUserCreditTransactions,
  fetchUserSubscriptionTransactions,
  userTransactionKeys,
} from "../api/transactions";

/** A credit purchase of one user, as the Credit Transactions tab shows it. */
export interface CreditTransactionRow {
  _id: string;
  transactionDate: string;
  credits: number;
  amount: number;
  status: string;
  transactionId: string | null;
  /** Given back so far (refunds and disputes), and the payment's currency. */
  refundedAmount: number;
  currency: string;
}

/** A subscription payment of one user, as the Subscription Transactions tab shows it. */
export interface SubscriptionTransactionRow {
  _id: string;
  transactionDate: string;
  planName: string | null;
  amount: number;
  status: string;
  transactionId: string | null;
  refundedAmount: number;
  currency: string;
}

export interface TransactionsState<T> {
  rows: T[];
  isPending: boolean;
}

/**
 * The user's credit transactions (GET /api/admin/users/{userId}/transactions). Load failures
 * stay silent (admin-side spec, section 8): the tab shows its empty state.
 */
export function useUserCreditTransactions(userId: string): TransactionsState<CreditTransactionRow> {
  const query = useQuery({
    queryKey: userTransactionKeys.credits(userId),
    queryFn: ({ signal }) => fetchUserCreditTransactions(userId, signal),
  });
  return { rows: query.data ?? [], isPending: query.isPending };
}

/** The user's subscription transactions (GET /api/admin/users/{userId}/subscription-transactions). */
export function useUserSubscriptionTransactions(
  userId: string,
): TransactionsState<SubscriptionTransactionRow> {
  const query = useQuery({
    queryKey: userTransactionKeys.subscriptions(userId),
    queryFn: ({ signal }) => fetchUserSubscriptionTransactions(userId, signal),
  });
  return { rows: query.data ?? [], isPending: query.isPending };
}
