import {
  MONEY_TOOLS_MESSAGES,
  WITHDRAWAL_MESSAGES,
  type WithdrawalQuote,
  type WithdrawalResult,
  withdrawalDeadline,
} from "@twinline/contracts";
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import {
  type PaymentRefundRow,
  type PaymentRow,
  paymentRefunds,
  payments,
  type UserRow,
  type UserSubscriptionRow,
  users,
} from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { toMajor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { type AuditActor, writeAuditEntry } from "../../audit/in-transaction.ts";
import { applyCreditMovement } from "../../credits/ledger.ts";
import { enqueueWithdrawalConfirmation } from "../../fan-mail/enqueue.ts";
import { isInForce } from "../../users/subscription-state.ts";
import {
  AUDIT_ACTOR_KEY,
  lockPayment,
  refundableMinor,
  refundClaim,
  tookMoney,
  toPaymentRefund,
} from "../refunds/refunds-ledger.ts";
import type { RefundsService } from "../refunds/refunds-service.ts";
import type { SubscriptionsReader } from "../subscriptions/subscriptions-reader.ts";
import type { SubscriptionsService } from "../subscriptions/subscriptions-service.ts";
import { packageWithdrawal, planWithdrawal, type WithdrawalTerms } from "./withdrawal-terms.ts";

export interface WithdrawalsServiceOptions {
  db: Database;
  refunds: RefundsService;
  subscriptions: SubscriptionsService;
  reader: SubscriptionsReader;
  /** THE billing clock: what "the last 14 days" is measured on. */
  clock: Clock;
  /** Sends what the fan-mail queue holds now (the confirmation goes at once, not at the sweep). */
  kickMail: () => void;
}

/** A payment of the fan asking (a deleted account's, with no owner, is no one's to withdraw). */
type OwnPayment = PaymentRow & { userId: string };

/** The plan period a withdrawal gives back the unused part of (read before the plan ends). */
interface PlanPeriod {
  periodStart: Date;
  periodEnd: Date;
}

interface Priced {
  terms: WithdrawalTerms;
  endsPlan: boolean;
}

/** A withdrawal still standing (a refused one does not count: the fan may try again). */
const standing = inArray(paymentRefunds.status, ["pending", "succeeded"]);

/**
 * Withdrawal from a purchase (issue 26, item 5; docs/decisions/0065): the fan's own, within 14
 * days, once. The claim takes the unused credits back and writes its audit entry in one
 * transaction; the refund is then asked of the provider and settled as every refund is
 * (refunds-service.ts), with the claim's id as idempotency key.
 */
export function createWithdrawalsService(options: WithdrawalsServiceOptions) {
  const { db, refunds, subscriptions, reader, clock } = options;
  const now = () => new Date(clock.now());

  const standingWithdrawal = async (tx: Database, paymentId: string) => {
    const [row] = await tx
      .select()
      .from(paymentRefunds)
      .where(
        and(
          eq(paymentRefunds.paymentId, paymentId),
          eq(paymentRefunds.kind, "withdrawal"),
          standing,
        ),
      )
      .limit(1);
    return row;
  };

  const ownPayment = async (
    tx: Database,
    user: Pick<UserRow, "id">,
    paymentId: string,
  ): Promise<OwnPayment> => {
    const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId));
    if (!row || row.userId !== user.id)
      throw new HttpError(404, WITHDRAWAL_MESSAGES.paymentNotFound);
    return { ...row, userId: user.id };
  };

  /** Credits of the payment earlier refunds took back, or found missing. */
  const creditsTakenBefore = async (tx: Database, paymentId: string) => {
    const [earlier] = await tx
      .select({
        total: sql<number>`coalesce(sum(${paymentRefunds.creditsTaken} + ${paymentRefunds.creditsShortfall}), 0)::int`,
      })
      .from(paymentRefunds)
      .where(and(eq(paymentRefunds.paymentId, paymentId), eq(paymentRefunds.status, "succeeded")));
    return Number(earlier?.total ?? 0);
  };

  /** The plan period this payment paid for, when it is the latest payment of the plan in force. */
  const currentPeriodOf = async (payment: OwnPayment): Promise<PlanPeriod> => {
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
  };

  /** Whether this payment may be withdrawn from at `at` (the rules before the arithmetic). */
  const refuseUnlessWithdrawable = (payment: OwnPayment, at: Date) => {
    if (payment.status !== "success" || !tookMoney(payment) || payment.amountMinor <= 0) {
      throw new HttpError(409, WITHDRAWAL_MESSAGES.notWithdrawable);
    }
    if (at > withdrawalDeadline(payment.transactionDate)) {
      throw new HttpError(409, WITHDRAWAL_MESSAGES.tooLate);
    }
  };

  /** The terms, in `tx` (the claim's, under the payment's and the user's row locks). */
  const price = async (
    tx: Database,
    payment: OwnPayment,
    period: PlanPeriod | null,
    at: Date,
    lockUser: boolean,
  ): Promise<Priced> => {
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
  };

  const toResult = (row: PaymentRefundRow): WithdrawalResult => ({
    _id: row.id,
    paymentId: row.paymentId ?? "",
    status: row.status,
    refundAmount: toMajor(row.amountMinor),
    currency: row.currency,
    creditsTakenBack: row.creditsTaken,
    endsPlan: row.metadata.endsPlan === true,
    withdrawnAt: String(row.metadata.withdrawnAt ?? row.createdAt.toISOString()),
  });

  const answer = async (row: PaymentRefundRow) => {
    const [owner] = row.userId
      ? await db.select({ credits: users.credits }).from(users).where(eq(users.id, row.userId))
      : [];
    return { withdrawal: toResult(row), balance: owner?.credits ?? 0 };
  };

  /**
   * The claim: the refund row, the credits taken back, the payment marked withdrawn and the
   * audit entry, in one transaction; a parallel or repeated request finds the standing one.
   */
  const claim = (
    user: Pick<UserRow, "id">,
    paymentId: string,
    period: PlanPeriod | null,
    at: Date,
    actor: AuditActor,
  ): Promise<{ row: PaymentRefundRow; replay: boolean }> =>
    db.transaction(async (tx) => {
      const locked = await lockPayment(tx, paymentId);
      if (!locked || locked.userId !== user.id) {
        throw new HttpError(404, WITHDRAWAL_MESSAGES.paymentNotFound);
      }
      const payment: OwnPayment = { ...locked, userId: user.id };
      const earlier = await standingWithdrawal(tx, payment.id);
      if (earlier) return { row: earlier, replay: true };
      refuseUnlessWithdrawable(payment, at);
      if (!payment.stripePaymentId)
        throw new HttpError(409, MONEY_TOOLS_MESSAGES.noProviderPayment);
      const { terms, endsPlan } = await price(tx, payment, period, at, true);
      const [failedBefore] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(paymentRefunds)
        .where(
          and(eq(paymentRefunds.paymentId, payment.id), eq(paymentRefunds.kind, "withdrawal")),
        );
      const withdrawnAt = at.toISOString();
      const [claimed] = await tx
        .insert(paymentRefunds)
        .values(
          refundClaim(payment, {
            kind: "withdrawal",
            amountMinor: terms.refundMinor,
            reason: "Withdrawal by the fan within 14 days",
            // One standing withdrawal per payment; a refused one leaves room for another.
            sourceKey: `withdrawal:${payment.id}:${Number(failedBefore?.n ?? 0)}`,
            adminId: null,
            providerRefundId: null,
            // On the billing clock, which the refunds sweep reads a claim's age on.
            createdAt: at,
            metadata: {
              endsPlan,
              withdrawnAt,
              creditsUsed: terms.creditsUsed,
              [AUDIT_ACTOR_KEY]: actor,
            },
          }),
        )
        .returning();
      if (!claimed) throw new Error("The withdrawal claim was not written");
      if (terms.creditsTakenBack > 0) {
        await applyCreditMovement(tx, {
          userId: payment.userId,
          kind: "refund",
          amount: -terms.creditsTakenBack,
          sourceKey: `withdrawal:${claimed.id}`,
          metadata: { paymentId: payment.id, refundId: claimed.id, reason: "Withdrawal" },
        });
      }
      const [row] = await tx
        .update(paymentRefunds)
        .set({ creditsTaken: terms.creditsTakenBack })
        .where(eq(paymentRefunds.id, claimed.id))
        .returning();
      await tx
        .update(payments)
        .set({ metadata: sql`${payments.metadata} || ${JSON.stringify({ withdrawnAt })}::jsonb` })
        .where(eq(payments.id, payment.id));
      await writeAuditEntry(tx, actor, {
        action: "payment.withdrawal",
        targetType: "payment",
        targetId: payment.id,
        before: {
          status: payment.status,
          amount: toMajor(payment.amountMinor),
          refundedAmount: toMajor(payment.refundedMinor),
          currency: payment.currency,
          userId: payment.userId,
        },
        after: {
          refund: toPaymentRefund(row ?? claimed),
          creditsTakenBack: terms.creditsTakenBack,
          endsPlan,
        },
      });
      return { row: row ?? claimed, replay: false };
    });

  return {
    /** Step 1 (GET /api/payments/{id}/withdrawal): what withdrawing would do. */
    async quote(user: Pick<UserRow, "id">, paymentId: string): Promise<WithdrawalQuote> {
      const payment = await ownPayment(db, user, paymentId);
      if (await standingWithdrawal(db, payment.id)) {
        throw new HttpError(409, WITHDRAWAL_MESSAGES.alreadyWithdrawn);
      }
      const at = now();
      refuseUnlessWithdrawable(payment, at);
      const period = payment.kind === "subscription" ? await currentPeriodOf(payment) : null;
      const { terms, endsPlan } = await price(db, payment, period, at, false);
      return {
        paymentId: payment.id,
        kind: payment.kind,
        itemName: payment.itemName,
        refundAmount: toMajor(terms.refundMinor),
        currency: payment.currency,
        creditsTakenBack: terms.creditsTakenBack,
        creditsUsed: terms.creditsUsed,
        endsPlan,
        deadline: withdrawalDeadline(payment.transactionDate).toISOString(),
      };
    },

    /**
     * Step 2 (POST /api/payments/{id}/withdrawal): withdraws once. A plan ends at the provider
     * first (its unused part is what is then given back); a repeated request answers the
     * standing withdrawal and changes nothing.
     */
    async withdraw(user: Pick<UserRow, "id" | "email">, paymentId: string, actor: AuditActor) {
      const payment = await ownPayment(db, user, paymentId);
      const earlier = await standingWithdrawal(db, payment.id);
      if (earlier) return { ...(await answer(earlier)), replay: true };
      const at = now();
      refuseUnlessWithdrawable(payment, at);
      let period: PlanPeriod | null = null;
      if (payment.kind === "subscription") {
        period = await currentPeriodOf(payment);
        // Priced before the plan ends (the claim prices again under its locks, on this period).
        await price(db, payment, period, at, false);
        try {
          await subscriptions.cancelNow(user);
        } catch (error) {
          // A parallel withdrawal ended it first: that one is the answer.
          const standingNow = await standingWithdrawal(db, payment.id);
          if (standingNow) return { ...(await answer(standingNow)), replay: true };
          throw error;
        }
      }
      let claimed: { row: PaymentRefundRow; replay: boolean };
      try {
        claimed = await claim(user, payment.id, period, at, actor);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const standingNow = await standingWithdrawal(db, payment.id);
        if (!standingNow) throw error;
        claimed = { row: standingNow, replay: true };
      }
      if (claimed.replay) return { ...(await answer(claimed.row)), replay: true };
      const settled =
        (await refunds.execute(claimed.row, payment.stripePaymentId ?? "")) ?? claimed.row;
      // Queued once per withdrawal (its refund row's id), sent and retried by the fan-mail queue.
      await enqueueWithdrawalConfirmation(db, user.id, settled.id, {
        item: payment.itemName,
        amountMinor: settled.amountMinor,
        currency: settled.currency,
        withdrawnAt: at.toISOString(),
        transactionId: settled.providerRefundId ?? settled.id,
        creditsRemoved: settled.creditsTaken,
        endsPlan: payment.kind === "subscription",
      });
      options.kickMail();
      return { ...(await answer(settled)), replay: false };
    },
  };
}

export type WithdrawalsService = ReturnType<typeof createWithdrawalsService>;
