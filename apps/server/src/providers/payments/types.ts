export interface BalanceAmount {
  /** Minor units. */
  amount: number;
  currency: string;
}

/**
 * Payments. The billing issue adds checkout, subscriptions and webhooks here; the sandbox is
 * the offline checkout served by this app.
 */
export interface PaymentsProvider {
  readonly mode: "stripe" | "sandbox";
  /** A read that proves the key works (the admin's key test). */
  retrieveBalance(): Promise<BalanceAmount[]>;
}
