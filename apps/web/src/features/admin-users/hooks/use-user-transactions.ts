/** A credit purchase of one user, as the Credit Transactions tab shows it. */
export interface CreditTransactionRow {
  _id: string;
  transactionDate: string;
  credits: number;
  amount: number;
  status: string;
  transactionId: string | null;
}

/** A subscription payment of one user, as the Subscription Transactions tab shows it. */
export interface SubscriptionTransactionRow {
  _id: string;
  transactionDate: string;
  planName: string | null;
  amount: number;
  status: string;
  transactionId: string | null;
}

export interface TransactionsState<T> {
  rows: T[];
  isPending: boolean;
}

const NONE: TransactionsState<never> = { rows: [], isPending: false };

/**
 * The user's credit transactions. Billing (a later issue) fills this from
 * GET /api/admin/users/{userId}/transactions; until that endpoint exists nothing is requested and
 * the tab shows its empty state. Load failures stay silent (admin-side spec, section 8).
 */
export function useUserCreditTransactions(
  _userId: string,
): TransactionsState<CreditTransactionRow> {
  return NONE;
}

/**
 * The user's subscription transactions; billing fills this from
 * GET /api/admin/users/{userId}/subscription-transactions. Nothing is requested until then.
 */
export function useUserSubscriptionTransactions(
  _userId: string,
): TransactionsState<SubscriptionTransactionRow> {
  return NONE;
}
