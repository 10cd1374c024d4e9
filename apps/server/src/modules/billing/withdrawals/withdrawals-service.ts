import { WITHDRAWAL_MESSAGES, type WithdrawalQuote, withdrawalDeadline } from "@twinline/contracts";
import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import { type PaymentRefundRow, type UserRow, users } from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { toMajor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { AuditActor } from "../../audit/in-transaction.ts";
import { enqueueWithdrawalConfirmation } from "../../fan-mail/enqueue.ts";
import type { RefundsService } from "../refunds/refunds-service.ts";
import type { SubscriptionsReader } from "../subscriptions/subscriptions-reader.ts";
import type { SubscriptionsService } from "../subscriptions/subscriptions-service.ts";
import { claimWithdrawal } from "./withdrawal-claim.ts";
import {
  currentPeriodOf,
  ownPayment,
  type PlanPeriod,
  priceWithdrawal,
  refuseUnlessWithdrawable,
  standingWithdrawal,
  toWithdrawalResult,
} from "./withdrawal-rules.ts";

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

/**
 * Withdrawal from a purchase (issue 26, item 5; docs/decisions/0065): the fan's own, within 14
 * days, once. The claim takes the unused credits back and writes its audit entry in one
 * transaction (withdrawal-claim.ts); the refund is then asked of the provider and settled as
 * every refund is (refunds-service.ts), with the claim's id as idempotency key.
 */
export function createWithdrawalsService(options: WithdrawalsServiceOptions) {
  const { db, refunds, subscriptions, reader, clock } = options;
  const now = () => new Date(clock.now());

  const answer = async (row: PaymentRefundRow) => {
    const [owner] = row.userId
      ? await db.select({ credits: users.credits }).from(users).where(eq(users.id, row.userId))
      : [];
    return { withdrawal: toWithdrawalResult(row), balance: owner?.credits ?? 0 };
  };

  return {
    /** Step 1 (GET /api/payments/{id}/withdrawal): what withdrawing would do. */
    async quote(user: Pick<UserRow, "id">, paymentId: string): Promise<WithdrawalQuote> {
      const payment = await ownPayment(db, user, paymentId);
      if (await standingWithdrawal(db, payment.id)) {
        throw new HttpError(409, WITHDRAWAL_MESSAGES.alreadyWithdrawn);
      }
      const at = now();
      refuseUnlessWithdrawable(payment, at);
      const period =
        payment.kind === "subscription" ? await currentPeriodOf(db, reader, payment) : null;
      const { terms, endsPlan } = await priceWithdrawal(db, payment, period, at, false);
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
        period = await currentPeriodOf(db, reader, payment);
        // Priced before the plan ends (the claim prices again under its locks, on this period).
        await priceWithdrawal(db, payment, period, at, false);
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
        claimed = await claimWithdrawal(db, user, payment.id, period, at, actor);
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
