import { MONEY_TOOLS_MESSAGES } from "@twinline/contracts";
import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { type PaymentRefundRow, paymentRefunds } from "../../../db/schema/index.ts";
import { toMajor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { AuditActor } from "../../audit/in-transaction.ts";
import {
  AUDIT_ACTOR_KEY,
  lockPayment,
  refundableMinor,
  refundClaim,
  tookMoney,
} from "./refunds-ledger.ts";

export interface RefundClaimInput {
  paymentId: string;
  amountMinor: number | null;
  reason: string;
  kind: "admin";
  /** The admin's request: kept with the claim for the audit entry its settling writes. */
  actor: AuditActor;
  sourceKey: string;
  metadata?: Record<string, unknown>;
}

export interface ClaimedRefund {
  claim: PaymentRefundRow;
  providerPaymentId: string;
  replay: boolean;
}

/**
 * What a refund asking for `requestedMinor` (null: all that is left) of the `leftMinor` still
 * refundable gives back: all of it or less; nothing left is a 409, more than is left a 400.
 */
export function refundAmount(leftMinor: number, requestedMinor: number | null): number {
  if (leftMinor <= 0) throw new HttpError(409, MONEY_TOOLS_MESSAGES.nothingLeft);
  const amountMinor = requestedMinor ?? leftMinor;
  if (amountMinor > leftMinor) {
    throw new HttpError(400, MONEY_TOOLS_MESSAGES.amountTooLarge, {
      field: "amount",
      refundable: toMajor(leftMinor),
    });
  }
  return amountMinor;
}

/**
 * Claims a refund of a payment under its row lock, so parallel requests never give back more
 * than was paid; `now` reads the billing clock, on which the sweep reads the claim's age. A
 * known request id answers the refund it made.
 */
export const claimRefund = (
  db: Database,
  now: () => Date,
  input: RefundClaimInput,
): Promise<ClaimedRefund> =>
  db.transaction(async (tx) => {
    const payment = await lockPayment(tx, input.paymentId);
    if (!payment) throw new HttpError(404, MONEY_TOOLS_MESSAGES.paymentNotFound);
    const [earlier] = await tx
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.sourceKey, input.sourceKey));
    if (earlier) {
      return { claim: earlier, providerPaymentId: payment.stripePaymentId ?? "", replay: true };
    }
    if (!tookMoney(payment)) throw new HttpError(409, MONEY_TOOLS_MESSAGES.notRefundable);
    if (!payment.stripePaymentId) {
      throw new HttpError(409, MONEY_TOOLS_MESSAGES.noProviderPayment);
    }
    const amountMinor = refundAmount(await refundableMinor(tx, payment), input.amountMinor);
    const [claimed] = await tx
      .insert(paymentRefunds)
      .values(
        refundClaim(payment, {
          // A failed payment that took money has a kind of its own (decision 0036).
          kind: payment.status === "failed" ? "failed_payment" : input.kind,
          amountMinor,
          reason: input.reason,
          sourceKey: input.sourceKey,
          adminId: input.actor.adminId,
          metadata: { ...input.metadata, [AUDIT_ACTOR_KEY]: input.actor },
          // The sweep measures a claim's age on this clock (a request that died half-way).
          createdAt: now(),
        }),
      )
      .returning();
    if (!claimed) throw new Error("The refund claim was not written");
    return { claim: claimed, providerPaymentId: payment.stripePaymentId, replay: false };
  });
