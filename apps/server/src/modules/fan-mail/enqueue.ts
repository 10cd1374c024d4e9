import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { fanEmails } from "../../db/schema/index.ts";
import type {
  FanEmailKind,
  FanEmailPayloads,
  PaymentFailedPayload,
  ReceiptPayload,
  RenewalReminderPayload,
  SubscriptionChangePayload,
  WithdrawalPayload,
} from "./kinds.ts";

export interface FanEmailRequest<K extends FanEmailKind> {
  kind: K;
  /**
   * Unique per mail (`receipt:<payment source key>`, `renewal-reminder:<sub>:<period end>`...):
   * a second enqueue with the same key adds nothing, so a replay sends nothing twice.
   */
  key: string;
  /** The fan it is for; their address is read when it is sent. */
  userId?: string | null;
  /** A fixed recipient instead (the operator). */
  toAddress?: string | null;
  payload: FanEmailPayloads[K];
}

/**
 * Puts one e-mail in the queue (fan_emails), in the caller's transaction: it exists exactly when
 * the event that owes it committed. Answers whether it was new (false: the key was there).
 */
export async function enqueueFanEmail<K extends FanEmailKind>(
  tx: Database,
  request: FanEmailRequest<K>,
): Promise<boolean> {
  // A deleted account's events (their rows kept for accounting, detached) mail no one.
  if (!request.userId && !request.toAddress) return false;
  const inserted = await tx
    .insert(fanEmails)
    .values({
      idempotencyKey: request.key,
      kind: request.kind,
      userId: request.userId ?? null,
      toAddress: request.toAddress ?? null,
      payload: request.payload as unknown as Record<string, unknown>,
    })
    .onConflictDoNothing({ target: fanEmails.idempotencyKey })
    .returning({ id: fanEmails.id });
  return inserted.length > 0;
}

/** The receipt of a successful payment; `renewal` for a subscription's renewal. */
export const enqueueReceipt = (
  tx: Database,
  userId: string | null,
  sourceKey: string,
  payload: ReceiptPayload,
  renewal = false,
) =>
  enqueueFanEmail(tx, {
    kind: renewal ? "renewal_receipt" : "receipt",
    key: `receipt:${sourceKey}`,
    userId,
    payload,
  });

/** A declined payment, once per attempt (`sourceKey` is the failed attempt's). */
export const enqueuePaymentFailed = (
  tx: Database,
  userId: string | null,
  sourceKey: string,
  payload: PaymentFailedPayload,
) =>
  enqueueFanEmail(tx, {
    kind: "payment_failed",
    key: `payment-failed:${sourceKey}`,
    userId,
    payload,
  });

/** A cancellation (at the period end, or now) or its undoing, once per history event. */
export const enqueueSubscriptionChange = (
  tx: Database,
  userId: string | null,
  change: "canceled" | "resumed",
  eventKey: string,
  payload: SubscriptionChangePayload,
) =>
  enqueueFanEmail(tx, {
    kind: change === "canceled" ? "subscription_canceled" : "subscription_resumed",
    key: `subscription-${change}:${eventKey}`,
    userId,
    payload,
  });

/** The reminder before an annual plan renews, once per subscription and period. */
export const enqueueRenewalReminder = (
  tx: Database,
  userId: string | null,
  subscriptionId: string,
  payload: RenewalReminderPayload,
) =>
  enqueueFanEmail(tx, {
    kind: "renewal_reminder",
    key: `renewal-reminder:${subscriptionId}:${payload.renewsAt}`,
    userId,
    payload,
  });

/**
 * The confirmation of a withdrawal (the fan's right to withdraw from a purchase, issue 26 item
 * 4): called in the withdrawal's transaction, `withdrawalKey` naming it uniquely.
 */
export const enqueueWithdrawalConfirmation = (
  tx: Database,
  userId: string | null,
  withdrawalKey: string,
  payload: WithdrawalPayload,
) =>
  enqueueFanEmail(tx, {
    kind: "withdrawal_confirmation",
    key: `withdrawal:${withdrawalKey}`,
    userId,
    payload,
  });

/** Rows this queue considers due at `now` (the sender's claim uses the same rule). */
export const dueCondition = (now: Date) =>
  sql`(${fanEmails.status} = 'pending' and (${fanEmails.nextAttemptAt} is null or ${fanEmails.nextAttemptAt} <= ${now.toISOString()}::timestamptz))
    or (${fanEmails.status} = 'sending' and ${fanEmails.nextAttemptAt} <= ${now.toISOString()}::timestamptz)`;
