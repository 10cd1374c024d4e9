import type { Database } from "../../../db/client.ts";
import { type CheckoutSessionRow, payments, subscriptionEvents } from "../../../db/schema/index.ts";
import { knownCurrency, type MoneyAmount } from "./verify-payment.ts";

export interface FailedAttempt {
  /** Unique per attempt: a replay of the same attempt records nothing twice. */
  sourceKey: string;
  /** Why it failed, shown to the admin ("Your card was declined.", an amount mismatch...). */
  reason: string;
  /** What the provider took or tried to take; the session's price when unknown. */
  charged?: MoneyAmount;
  paymentId?: string | null;
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
    })
    .onConflictDoNothing({ target: subscriptionEvents.sourceKey });
}
