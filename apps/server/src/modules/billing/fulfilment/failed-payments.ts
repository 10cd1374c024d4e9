import type { Database } from "../../../db/client.ts";
import { type CheckoutSessionRow, payments, subscriptionEvents } from "../../../db/schema/index.ts";
import type {
  CheckoutSessionInfo,
  PaymentAttemptError,
} from "../../../providers/payments/index.ts";
import { knownCurrency, type MoneyAmount } from "./verify-payment.ts";

export interface FailedAttempt {
  /** Unique per attempt: a replay of the same attempt records nothing twice. */
  sourceKey: string;
  /** Why it failed, shown to the admin ("Your card was declined.", an amount mismatch...). */
  reason: string;
  /** What the provider took or tried to take; the session's price when unknown. */
  charged?: MoneyAmount;
  paymentId?: string | null;
  /** When it failed, on the billing clock (the lists and the revenue days read it). */
  at: Date;
}

/**
 * A checkout attempt that did not pay for what was sold (a declined card, an asynchronous
 * payment that failed, a paid amount that differs from the price): a `failed` payment row in the
 * user's and the admin's lists, and for a plan a `payment_failed` event in subscription history
 * (docs/decisions/0036). Nothing is granted.
 */
export async function recordFailedCheckout(
  tx: Database,
  row: CheckoutSessionRow,
  attempt: FailedAttempt,
): Promise<void> {
  const currency = (attempt.charged && knownCurrency(attempt.charged.currency)) ?? row.currency;
  const amountMinor = attempt.charged ? attempt.charged.amountMinor : row.amountMinor;
  const inserted = await tx
    .insert(payments)
    .values({
      kind: row.mode === "payment" ? "credits" : "subscription",
      userId: row.userId,
      status: "failed",
      amountMinor,
      currency,
      credits: row.mode === "payment" ? (row.credits ?? 0) : 0,
      packageId: row.packageId,
      planId: row.planId,
      itemName: row.itemName,
      provider: row.provider,
      stripePaymentId: attempt.paymentId ?? null,
      checkoutSessionId: row.sessionId,
      sourceKey: attempt.sourceKey,
      transactionDate: attempt.at,
      metadata: {
        failureReason: attempt.reason,
        ...(attempt.charged ? { charged: attempt.charged } : {}),
      },
    })
    .onConflictDoNothing({ target: payments.sourceKey })
    .returning({ id: payments.id });
  if (row.mode !== "subscription" || inserted.length === 0) return;
  await tx
    .insert(subscriptionEvents)
    .values({
      userId: row.userId,
      planId: row.planId,
      planName: row.itemName,
      eventType: "payment_failed",
      status: "incomplete",
      amountMinor,
      currency,
      autoRenew: false,
      sourceKey: `${attempt.sourceKey}:payment_failed`,
      timestamp: attempt.at,
    })
    .onConflictDoNothing({ target: subscriptionEvents.sourceKey });
}

/** The reason of a failure the provider gave no words for. */
const PAYMENT_FAILED_REASON = "The payment failed";

export interface ProviderFailure {
  /** The attempt's error as the provider told it; null when it did not. */
  error: PaymentAttemptError | null;
  paymentIntentId: string | null;
  /** The event that told of it. */
  eventId: string;
  /** When it was told, on the billing clock. */
  at: Date;
}

/**
 * One failed attempt at the provider's checkout, told by `payment_intent.payment_failed` or, for
 * a delayed payment, also by `checkout.session.async_payment_failed`: both events of one attempt
 * name the same source key, so it is one row whichever comes first, and a replay adds nothing.
 * - A card attempt is named by its failed charge (one per attempt; both events carry it).
 * - A failure without a charge on a session that completed unpaid is its delayed payment, the
 *   only attempt a completed session has: the session's own key, as it always was.
 * - Any other (a failed authentication on an open session) is named by its event.
 * The row keeps the attempt's provider id (the failed charge, never the payment intent a later
 * success shares), so a refund or a dispute of that success finds the paid row only.
 */
export async function recordProviderFailure(
  tx: Database,
  row: CheckoutSessionRow,
  session: CheckoutSessionInfo,
  { error, paymentIntentId, eventId, at }: ProviderFailure,
): Promise<void> {
  const delayed = session.status === "complete" && session.paymentStatus !== "paid";
  const attempt =
    error?.chargeId != null
      ? {
          sourceKey: `checkout:${row.sessionId}:failed:${error.chargeId}`,
          paymentId: error.chargeId,
        }
      : delayed
        ? { sourceKey: `checkout:${row.sessionId}`, paymentId: paymentIntentId }
        : { sourceKey: `checkout:${row.sessionId}:failed:${eventId}`, paymentId: null };
  await recordFailedCheckout(tx, row, {
    ...attempt,
    reason: error?.message || PAYMENT_FAILED_REASON,
    at,
  });
}
