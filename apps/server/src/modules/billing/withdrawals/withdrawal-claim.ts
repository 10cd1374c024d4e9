import { MONEY_TOOLS_MESSAGES, WITHDRAWAL_MESSAGES } from "@twinline/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  type PaymentRefundRow,
  paymentRefunds,
  payments,
  type UserRow,
} from "../../../db/schema/index.ts";
import { toMajor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { type AuditActor, writeAuditEntry } from "../../audit/in-transaction.ts";
import { applyCreditMovement } from "../../credits/ledger.ts";
import {
  AUDIT_ACTOR_KEY,
  lockPayment,
  refundClaim,
  toPaymentRefund,
} from "../refunds/refunds-ledger.ts";
import {
  type OwnPayment,
  type PlanPeriod,
  priceWithdrawal,
  refuseUnlessWithdrawable,
  standingWithdrawal,
} from "./withdrawal-rules.ts";

/**
 * The claim: the refund row, the credits taken back, the payment marked withdrawn and the
 * audit entry, in one transaction; a parallel or repeated request finds the standing one.
 */
export const claimWithdrawal = (
  db: Database,
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
    if (!payment.stripePaymentId) throw new HttpError(409, MONEY_TOOLS_MESSAGES.noProviderPayment);
    const { terms, endsPlan } = await priceWithdrawal(tx, payment, period, at, true);
    const [failedBefore] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(paymentRefunds)
      .where(and(eq(paymentRefunds.paymentId, payment.id), eq(paymentRefunds.kind, "withdrawal")));
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
