/**
 * Every e-mail the app owes a fan (issue 26), what each one carries, and whether it is
 * transactional (docs/decisions/0066): a transactional mail is about money the fan paid or a
 * contract they hold, and an unsubscribe does not stop it. The payloads are stored as JSON in
 * fan_emails.payload: amounts in minor units, dates as ISO strings.
 */

interface Amount {
  amountMinor: number;
  currency: string;
}

export interface ReceiptPayload extends Amount {
  /** What was bought: the package or the plan. */
  item: string;
  /** "credits" (a one-off package) or "subscription" (a plan's payment). */
  purchase: "credits" | "subscription";
  /** Credits the payment added (0 when none). */
  credits: number;
  /** When it was paid (ISO). */
  paidAt: string;
  /** The provider's id of the payment (payment intent, invoice), else our payment row's id. */
  transactionId: string;
  /** The paid period's end (subscriptions; ISO), when known. */
  periodEnd?: string | null;
  /** What a promotion code took off (minor units; `amountMinor` is what was paid), and the code. */
  discountMinor?: number;
  promotionCode?: string | null;
}

export interface PaymentFailedPayload extends Amount {
  item: string;
  failedAt: string;
  transactionId: string;
  /** The provider's reason ("Your card was declined."), when it gave one. */
  reason?: string | null;
  /** A subscription's renewal (a retry comes) or a one-off checkout (nothing was charged). */
  purchase: "credits" | "subscription";
}

export interface SubscriptionChangePayload {
  planName: string;
  /** Cancellation: the day the plan ends; resumption: the next renewal. ISO. */
  periodEnd: string;
}

export interface RenewalReminderPayload extends Amount {
  planName: string;
  renewsAt: string;
}

export interface WithdrawalPayload extends Amount {
  /** What was withdrawn from (the plan or the package). */
  item: string;
  /** When the withdrawal was made (ISO). */
  withdrawnAt: string;
  /** The refund's id at the provider (or ours), for the fan's records. */
  transactionId: string;
  /** Credits taken back with it (0 when none). */
  creditsRemoved: number;
  /** A plan's withdrawal ends the plan at once. */
  endsPlan?: boolean;
}

export interface LowBalancePayload {
  balance: number;
  creditsPerMinute: number;
}

export interface ContactPayload {
  fromName: string;
  fromEmail: string;
  message: string;
}

export interface FanEmailPayloads {
  receipt: ReceiptPayload;
  renewal_receipt: ReceiptPayload;
  payment_failed: PaymentFailedPayload;
  subscription_canceled: SubscriptionChangePayload;
  subscription_resumed: SubscriptionChangePayload;
  renewal_reminder: RenewalReminderPayload;
  withdrawal_confirmation: WithdrawalPayload;
  low_balance: LowBalancePayload;
  contact_message: ContactPayload;
}

export type FanEmailKind = keyof FanEmailPayloads;

/** The kinds an unsubscribe stops. Everything else is transactional and always sent. */
export const NON_TRANSACTIONAL_KINDS: ReadonlySet<FanEmailKind> = new Set(["low_balance"]);

export const isTransactional = (kind: string): boolean =>
  !NON_TRANSACTIONAL_KINDS.has(kind as FanEmailKind);
