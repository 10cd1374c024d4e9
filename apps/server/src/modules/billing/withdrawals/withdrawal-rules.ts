import {
  WITHDRAWAL_MESSAGES,
  type WithdrawalResult,
  withdrawalDeadline,
} from "@twinline/contracts";
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  type PaymentRefundRow,
  type PaymentRow,
  paymentRefunds,
  payments,
  type UserRow,
  type UserSubscriptionRow,
  users,
} from "../../../db/schema/index.ts";
import { toMajor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { isInForce } from "../../users/subscription-state.ts";
import { refundableMinor, tookMoney } from "../refunds/refunds-ledger.ts";
import type { SubscriptionsReader } from "../subscriptions/subscriptions-reader.ts";
import { packageWithdrawal, planWithdrawal, type WithdrawalTerms } from "./withdrawal-terms.ts";

/** A payment of the fan asking (a deleted account's, with no owner, is no one's to withdraw). */
export type OwnPayment = PaymentRow & { userId: string };

/** The plan period a withdrawal gives back the unused part of (read before the plan ends). */
export interface PlanPeriod {
  periodStart: Date;
  periodEnd: Date;
}

export interface Priced {
  terms: WithdrawalTerms;
  endsPlan: boolean;
}

/** A withdrawal still standing (a refused one does not count: the fan may try again). */
export async function standingWithdrawal(tx: Database, paymentId: string) {
  const [row] = await tx
    .select()
    .from(paymentRefunds)
    .where(
      and(
        eq(paymentRefunds.paymentId, paymentId),
        eq(paymentRefunds.kind, "withdrawal"),
        inArray(paymentRefunds.status, ["pending", "succeeded"]),
      ),
    )
    .limit(1);
  return row;
}

/** The payment when it is this fan's; 404 otherwise. */
export async function ownPayment(
  tx: Database,
  user: Pick<UserRow, "id">,
  paymentId: string,
): Promise<OwnPayment> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId));
  if (!row || row.userId !== user.id) throw new HttpError(404, WITHDRAWAL_MESSAGES.paymentNotFound);
  return { ...row, userId: user.id };
}

/** Credits of the payment earlier refunds took back, or found missing. */
async function creditsTakenBefore(tx: Database, paymentId: string) {
  const [earlier] = await tx
    .select({
      total: sql<number>`coalesce(sum(${paymentRefunds.creditsTaken} + ${paymentRefunds.creditsShortfall}), 0)::int`,
    })
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.paymentId, paymentId), eq(paymentRefunds.status, "succeeded")));
  return Number(earlier?.total ?? 0);
}

/** The plan period this payment paid for, when it is the latest payment of the plan in force. */
export async function currentPeriodOf(
  db: Database,
  reader: SubscriptionsReader,
  payment: OwnPayment,
): Promise<PlanPeriod> {
  const row: UserSubscriptionRow | undefined = await reader.currentRow(payment.userId);
  if (!row || !isInForce(row) || row.id !== payment.subscriptionId) {
    throw new HttpError(409, WITHDRAWAL_MESSAGES.notCurrentPeriod);
  }
  const [latest] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.subscriptionId, row.id),
        eq(payments.status, "success"),
        gt(payments.amountMinor, 0),
      ),
    )
    .orderBy(desc(payments.transactionDate), desc(payments.seq))
    .limit(1);
  if (latest?.id !== payment.id) throw new HttpError(409, WITHDRAWAL_MESSAGES.notCurrentPeriod);
  return { periodStart: row.currentPeriodStart, periodEnd: row.currentPeriodEnd };
}

/**
 * Whether this payment may be withdrawn from at `at` (the rules before the arithmetic): a paid
 * purchase, up to and including the last moment of its 14 days.
 */
export function refuseUnlessWithdrawable(payment: PaymentRow, at: Date) {
  if (payment.status !== "success" || !tookMoney(payment) || payment.amountMinor <= 0) {
    throw new HttpError(409, WITHDRAWAL_MESSAGES.notWithdrawable);
  }
  if (at > withdrawalDeadline(payment.transactionDate)) {
    throw new HttpError(409, WITHDRAWAL_MESSAGES.tooLate);
  }
}

/** The terms, in `tx` (the claim's, under the payment's and the user's row locks). */
export async function priceWithdrawal(
  tx: Database,
  payment: OwnPayment,
  period: PlanPeriod | null,
  at: Date,
  lockUser: boolean,
): Promise<Priced> {
  const balanceQuery = tx
    .select({ credits: users.credits })
    .from(users)
    .where(eq(users.id, payment.userId));
  const [user] = lockUser ? await balanceQuery.for("update") : await balanceQuery;
  const common = {
    refundableMinor: await refundableMinor(tx, payment),
    creditsLeft: payment.credits - (await creditsTakenBefore(tx, payment.id)),
    balance: user?.credits ?? 0,
  };
  const terms =
    payment.kind === "credits" || !period
      ? packageWithdrawal(common)
      : planWithdrawal({ ...common, ...period, now: at });
  if (terms.refundMinor <= 0) throw new HttpError(409, WITHDRAWAL_MESSAGES.nothingLeft);
  return { terms, endsPlan: payment.kind === "subscription" };
}

export const toWithdrawalResult = (row: PaymentRefundRow): WithdrawalResult => ({
  _id: row.id,
  paymentId: row.paymentId ?? "",
  status: row.status,
  refundAmount: toMajor(row.amountMinor),
  currency: row.currency,
  creditsTakenBack: row.creditsTaken,
  endsPlan: row.metadata.endsPlan === true,
  withdrawnAt: String(row.metadata.withdrawnAt ?? row.createdAt.toISOString()),
});
