import { randomUUID } from "node:crypto";
import { type AdminRefundResponse, MONEY_TOOLS_MESSAGES } from "@twinline/contracts";
import { and, asc, eq, lt } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../../db/client.ts";
import {
  type PaymentRefundRow,
  paymentRefunds,
  payments,
  users,
} from "../../../db/schema/index.ts";
import { toMajor, toMinor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { ProviderError } from "../../../providers/errors.ts";
import type { AuditActor } from "../../audit/in-transaction.ts";
import { settleDuplicate } from "./duplicate-subscription.ts";
import { claimRefund, type RefundClaimInput } from "./refund-claim.ts";
import { executeRefund, failRefund, type RefundDeps } from "./refund-execution.ts";
import { toPaymentRefund } from "./refunds-ledger.ts";

export interface RefundsServiceOptions extends RefundDeps {
  log: FastifyBaseLogger;
}

/** A claim older than this is settled by the sweep (its request died half-way). */
const STALE_CLAIM_MS = 2 * 60 * 1000;
/** How often the sweep looks for them. */
export const REFUNDS_SWEEP_EVERY_MS = 60_000;
/** Every minute, as a job (docs/decisions/0072). */
export const REFUNDS_SWEEP_CRON = "* * * * *";

/** The refund as the admin's money tools answer it: with its payment and the owner's balance. */
async function refundAnswer(
  db: Database,
  refund: PaymentRefundRow,
): Promise<AdminRefundResponse["data"]> {
  const [payment] = refund.paymentId
    ? await db.select().from(payments).where(eq(payments.id, refund.paymentId))
    : [];
  if (!payment) throw new HttpError(404, MONEY_TOOLS_MESSAGES.paymentNotFound);
  const [owner] = payment.userId
    ? await db.select({ credits: users.credits }).from(users).where(eq(users.id, payment.userId))
    : [];
  return {
    refund: toPaymentRefund(refund),
    payment: {
      _id: payment.id,
      status: payment.status,
      amount: toMajor(payment.amountMinor),
      refundedAmount: toMajor(payment.refundedMinor),
      currency: payment.currency,
    },
    balance: owner?.credits ?? 0,
  };
}

/** Drives a pending claim to its end (the provider call is idempotent on the claim's id). */
async function driveRefund(deps: RefundDeps, row: PaymentRefundRow) {
  if (row.kind === "duplicate_subscription" && !row.paymentId) return settleDuplicate(deps, row);
  if (!row.paymentId) return;
  const [payment] = await deps.db.select().from(payments).where(eq(payments.id, row.paymentId));
  if (!payment?.stripePaymentId) {
    return failRefund(deps, row.id, MONEY_TOOLS_MESSAGES.noProviderPayment);
  }
  await executeRefund(deps, row, payment.stripePaymentId);
}

/**
 * Refunds (docs/decisions/0050, 0051): the operator's refund, the automatic refund of a second
 * plan payment, and the sweep that settles claims left pending. Every refund is claimed in the
 * database first (refund-claim.ts), then asked of the provider with the claim's id as
 * idempotency key, then settled (refund-execution.ts); a failure of the provider marks the claim
 * failed (the money is refundable again).
 */
export function createRefundsService(options: RefundsServiceOptions) {
  const { db, log, clock } = options;
  const claim = (input: RefundClaimInput) => claimRefund(db, () => new Date(clock.now()), input);
  const execute = (claimed: PaymentRefundRow, providerPaymentId: string) =>
    executeRefund(options, claimed, providerPaymentId);
  const drive = (row: PaymentRefundRow) => driveRefund(options, row);

  /** Claims left pending (a crash, an unreachable provider) are driven again. */
  const sweep = async (now = new Date(clock.now())): Promise<number> => {
    const rows = await db
      .select()
      .from(paymentRefunds)
      .where(
        and(
          eq(paymentRefunds.status, "pending"),
          lt(paymentRefunds.createdAt, new Date(now.getTime() - STALE_CLAIM_MS)),
        ),
      )
      .orderBy(asc(paymentRefunds.createdAt))
      .limit(50);
    for (const row of rows) {
      try {
        await drive(row);
      } catch (error) {
        if (!(error instanceof ProviderError) && !(error instanceof HttpError)) throw error;
        log.warn({ refundId: row.id, err: error }, "A pending refund could not be settled yet");
      }
    }
    return rows.length;
  };

  return {
    /** POST /api/admin/payments/{id}/refund. */
    async refundPayment(
      actor: AuditActor,
      paymentId: string,
      input: { amount?: number | undefined; reason: string; requestId?: string | undefined },
    ): Promise<AdminRefundResponse["data"]> {
      const claimed = await claim({
        paymentId,
        amountMinor: input.amount === undefined ? null : toMinor(input.amount),
        reason: input.reason,
        kind: "admin",
        actor,
        sourceKey: `admin:${input.requestId ?? randomUUID()}`,
      });
      // A replayed request answers the refund as it stands (one in flight is not asked twice;
      // a claim whose request died is driven by the sweep).
      if (claimed.replay) return refundAnswer(db, claimed.claim);
      const settled = await execute(claimed.claim, claimed.providerPaymentId);
      return refundAnswer(db, settled ?? claimed.claim);
    },

    /** A duplicate subscription's claims of this user, driven now (after the event committed). */
    async settleDuplicates(userId: string): Promise<void> {
      const rows = await db
        .select()
        .from(paymentRefunds)
        .where(
          and(
            eq(paymentRefunds.userId, userId),
            eq(paymentRefunds.kind, "duplicate_subscription"),
            eq(paymentRefunds.status, "pending"),
          ),
        );
      for (const row of rows) await drive(row);
    },

    /** Claims left pending (a crash, an unreachable provider) are driven again. */
    sweep,

    /**
     * Asks the provider for a refund claimed elsewhere (a withdrawal, claimed with its credits
     * in its own transaction) and settles it; a refusal fails the claim.
     */
    execute,

    /** Payment, for the subscription actions' refund of the unused part. */
    claimAndExecute: async (input: RefundClaimInput) => {
      const claimed = await claim(input);
      if (claimed.replay) return claimed.claim;
      return (await execute(claimed.claim, claimed.providerPaymentId)) ?? claimed.claim;
    },
  };
}

export type RefundsService = ReturnType<typeof createRefundsService>;
