import { randomUUID } from "node:crypto";
import { type AdminRefundResponse, MONEY_TOOLS_MESSAGES } from "@twinline/contracts";
import { and, asc, eq, lt } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../../db/client.ts";
import {
  type PaymentRefundRow,
  paymentRefunds,
  payments,
  subscriptionPlans,
  users,
} from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { toMajor, toMinor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { ProviderError } from "../../../providers/errors.ts";
import {
  CardError,
  type PaymentsProvider,
  type SandboxPayments,
} from "../../../providers/payments/index.ts";
import type { AuditActor } from "../../audit/in-transaction.ts";
import { providerCall } from "../provider-call.ts";
import {
  AUDIT_ACTOR_KEY,
  lockPayment,
  refundableMinor,
  refundClaim,
  returnWithdrawnCredits,
  settleRefund,
  tookMoney,
  toPaymentRefund,
} from "./refunds-ledger.ts";

export interface RefundsServiceOptions {
  db: Database;
  payments: () => Promise<PaymentsProvider>;
  sandbox: SandboxPayments;
  log: FastifyBaseLogger;
  /** THE billing clock: what "left pending for two minutes" is measured on. */
  clock: Clock;
}

/** A claim older than this is settled by the sweep (its request died half-way). */
const STALE_CLAIM_MS = 2 * 60 * 1000;
/** How often the sweep looks for them. */
export const REFUNDS_SWEEP_EVERY_MS = 60_000;
/** Every minute, as a job (docs/decisions/0072). */
export const REFUNDS_SWEEP_CRON = "* * * * *";

/**
 * Refunds (docs/decisions/0050, 0051): the operator's refund, the automatic refund of a second
 * plan payment, and the sweep that settles claims left pending. Every refund is claimed in the
 * database first, then asked of the provider with the claim's id as idempotency key, then
 * settled; a failure of the provider marks the claim failed (the money is refundable again).
 */
export function createRefundsService(options: RefundsServiceOptions) {
  const { db, sandbox, log, clock } = options;

  const providerOf = async (provider: "stripe" | "sandbox"): Promise<PaymentsProvider> => {
    if (provider === "sandbox") return sandbox;
    const configured = await options.payments();
    if (configured.mode !== "stripe") {
      throw new HttpError(400, MONEY_TOOLS_MESSAGES.stripeNotConfigured);
    }
    return configured;
  };

  const fail = async (refundId: string, error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    await db.transaction(async (tx) => {
      const [failed] = await tx
        .update(paymentRefunds)
        .set({ status: "failed", error: message.slice(0, 500), settledAt: new Date() })
        .where(and(eq(paymentRefunds.id, refundId), eq(paymentRefunds.status, "pending")))
        .returning();
      // A withdrawal took its credits back when claimed: they return with the failure.
      if (failed) await returnWithdrawnCredits(tx, failed);
    });
  };

  /**
   * Asks the provider for a claimed refund, then settles it. A refusal (the provider answered)
   * fails the claim, so the money is refundable again; an unreachable provider leaves it pending
   * for the sweep, which asks again with the same idempotency key.
   */
  const execute = async (claim: PaymentRefundRow, providerPaymentId: string) => {
    let providerRefundId: string;
    try {
      const provider = await providerOf(claim.provider);
      const refund = await provider.refund({
        paymentId: providerPaymentId,
        amountMinor: claim.amountMinor,
        idempotencyKey: claim.id,
        metadata: { refundId: claim.id, paymentId: claim.paymentId ?? "" },
      });
      providerRefundId = refund.id;
    } catch (error) {
      const refused =
        error instanceof CardError ||
        error instanceof HttpError ||
        (error instanceof ProviderError && error.status !== undefined);
      if (refused) await fail(claim.id, error);
      if (error instanceof CardError) throw new HttpError(400, error.message);
      return providerCall(() => Promise.reject(error));
    }
    return db.transaction((tx) => settleRefund(tx, claim.id, providerRefundId));
  };

  const balanceOf = async (userId: string) => {
    const [user] = await db
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, userId));
    return user?.credits ?? 0;
  };

  const answer = async (refund: PaymentRefundRow): Promise<AdminRefundResponse["data"]> => {
    const [payment] = refund.paymentId
      ? await db.select().from(payments).where(eq(payments.id, refund.paymentId))
      : [];
    if (!payment) throw new HttpError(404, MONEY_TOOLS_MESSAGES.paymentNotFound);
    return {
      refund: toPaymentRefund(refund),
      payment: {
        _id: payment.id,
        status: payment.status,
        amount: toMajor(payment.amountMinor),
        refundedAmount: toMajor(payment.refundedMinor),
        currency: payment.currency,
      },
      balance: payment.userId ? await balanceOf(payment.userId) : 0,
    };
  };

  /**
   * Claims a refund of `amountMinor` (null: all that is left) of a payment, under its row lock,
   * so parallel requests never give back more than was paid. A known request id answers the
   * refund it made.
   */
  const claim = async (input: {
    paymentId: string;
    amountMinor: number | null;
    reason: string;
    kind: "admin";
    /** The admin's request: kept with the claim for the audit entry its settling writes. */
    actor: AuditActor;
    sourceKey: string;
    metadata?: Record<string, unknown>;
  }): Promise<{ claim: PaymentRefundRow; providerPaymentId: string; replay: boolean }> =>
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
      const left = await refundableMinor(tx, payment);
      if (left <= 0) throw new HttpError(409, MONEY_TOOLS_MESSAGES.nothingLeft);
      const amountMinor = input.amountMinor ?? left;
      if (amountMinor > left) {
        throw new HttpError(400, MONEY_TOOLS_MESSAGES.amountTooLarge, {
          field: "amount",
          refundable: toMajor(left),
        });
      }
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
            createdAt: new Date(clock.now()),
          }),
        )
        .returning();
      if (!claimed) throw new Error("The refund claim was not written");
      return { claim: claimed, providerPaymentId: payment.stripePaymentId, replay: false };
    });

  /** A second subscription's payment (decision 0051): recorded, its subscription ended, refunded. */
  const settleDuplicate = async (row: PaymentRefundRow) => {
    const provider = await providerOf(row.provider);
    const subscriptionId = String(row.metadata.providerSubscriptionId ?? "");
    const subscription = await provider.retrieveSubscription(subscriptionId);
    if (subscription && subscription.status !== "canceled") {
      await provider.cancelNow(subscriptionId);
    }
    const invoiceId = subscription?.latestInvoiceId ?? null;
    const invoice = invoiceId ? await provider.retrieveInvoice(invoiceId) : null;
    if (invoice?.status !== "paid" || !invoice.paymentId || invoice.amountPaid <= 0) {
      // Nothing was charged: nothing to give back.
      await db
        .update(paymentRefunds)
        .set({ status: "succeeded", amountMinor: 0, settledAt: new Date() })
        .where(eq(paymentRefunds.id, row.id));
      return;
    }
    const paymentId = await db.transaction(async (tx) => {
      const planId = typeof row.metadata.planId === "string" ? row.metadata.planId : null;
      const [plan] = planId
        ? await tx.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, planId))
        : [];
      await tx
        .insert(payments)
        .values({
          kind: "subscription",
          userId: row.userId,
          status: "success",
          amountMinor: invoice.amountPaid,
          currency: row.currency,
          planId: plan?.id ?? null,
          itemName: plan?.name ?? "Subscription",
          provider: row.provider,
          stripePaymentId: invoice.paymentId,
          invoiceId: invoice.id,
          invoiceNumber: invoice.number,
          sourceKey: `invoice:${invoice.id}`,
          transactionDate: invoice.created,
          metadata: { billingReason: invoice.billingReason, duplicateSubscription: subscriptionId },
        })
        .onConflictDoNothing({ target: payments.sourceKey });
      const [payment] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(eq(payments.sourceKey, `invoice:${invoice.id}`));
      await tx
        .update(paymentRefunds)
        .set({ paymentId: payment?.id ?? null, amountMinor: invoice.amountPaid })
        .where(eq(paymentRefunds.id, row.id));
      return payment?.id ?? null;
    });
    if (!paymentId) return;
    const [fresh] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.id, row.id));
    if (fresh) await execute(fresh, invoice.paymentId);
  };

  /** Drives a pending claim to its end (the provider call is idempotent on the claim's id). */
  const drive = async (row: PaymentRefundRow) => {
    if (row.kind === "duplicate_subscription" && !row.paymentId) return settleDuplicate(row);
    if (!row.paymentId) return;
    const [payment] = await db.select().from(payments).where(eq(payments.id, row.paymentId));
    if (!payment?.stripePaymentId) return fail(row.id, MONEY_TOOLS_MESSAGES.noProviderPayment);
    await execute(row, payment.stripePaymentId);
  };

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
      if (claimed.replay) return answer(claimed.claim);
      const settled = await execute(claimed.claim, claimed.providerPaymentId);
      return answer(settled ?? claimed.claim);
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
    claimAndExecute: async (input: Parameters<typeof claim>[0]) => {
      const claimed = await claim(input);
      if (claimed.replay) return claimed.claim;
      return (await execute(claimed.claim, claimed.providerPaymentId)) ?? claimed.claim;
    },
  };
}

export type RefundsService = ReturnType<typeof createRefundsService>;
