import { type PaymentRefund, routePath, routes } from "@twinline/contracts";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  type PaymentRefundRow,
  type PaymentRow,
  paymentRefunds,
  payments,
  users,
} from "../../../db/schema/index.ts";
import { toMajor } from "../../../lib/money.ts";
import type { ChargeInfo, DisputeInfo } from "../../../providers/payments/index.ts";
import { type AuditActor, systemActor, writeAuditEntry } from "../../audit/in-transaction.ts";
import { applyCreditMovement } from "../../credits/ledger.ts";

/**
 * The database side of refunds and disputes (docs/decisions/0050), inside the caller's
 * transaction. A refund is CLAIMED (a pending row, counted against what is left to refund, under
 * the payment's row lock) before the provider is asked, and SETTLED once the provider said yes:
 * the credits the payment bought are taken back in proportion (as many as the user still has;
 * the rest is the recorded shortfall), the payment's refunded amount grows, and a payment given
 * back in whole shows `refunded`. Settling is idempotent (a settled row is left alone), so the
 * admin's call, Stripe's webhook and the sweep may all settle the same refund.
 */

export function toPaymentRefund(row: PaymentRefundRow): PaymentRefund {
  return {
    _id: row.id,
    paymentId: row.paymentId,
    kind: row.kind,
    status: row.status,
    amount: toMajor(row.amountMinor),
    currency: row.currency,
    reason: row.reason,
    creditsTaken: row.creditsTaken,
    creditsShortfall: row.creditsShortfall,
    providerRefundId: row.providerRefundId,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function lockPayment(tx: Database, paymentId: string): Promise<PaymentRow | null> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
  return row ?? null;
}

/**
 * Whether a payment took money that may be given back: a successful one (or one refunded in
 * part), or a failed one the provider charged anyway (a wrong amount, decision 0036: its
 * `metadata.charged`). A declined card took nothing.
 */
export function tookMoney(payment: PaymentRow): boolean {
  if (payment.status === "success" || payment.status === "refunded") return true;
  const charged = payment.metadata.charged as { amountMinor?: unknown } | undefined;
  return payment.status === "failed" && Number(charged?.amountMinor ?? 0) > 0;
}

/** Money of the payment not yet given back nor claimed by a refund in flight. */
export async function refundableMinor(tx: Database, payment: PaymentRow): Promise<number> {
  const [pending] = await tx
    .select({ total: sql<number>`coalesce(sum(${paymentRefunds.amountMinor}), 0)::int` })
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.paymentId, payment.id), eq(paymentRefunds.status, "pending")));
  return payment.amountMinor - payment.refundedMinor - Number(pending?.total ?? 0);
}

/**
 * Marks a claimed refund done (the provider refunded `providerRefundId`): takes the credits
 * back, grows the payment's refunded amount, sets its status. Nothing when already settled.
 */
export async function settleRefund(
  tx: Database,
  refundId: string,
  providerRefundId: string | null,
  settledAt: Date,
): Promise<PaymentRefundRow | null> {
  // One lock order everywhere: the payment, then its refund, then the user.
  const [unlocked] = await tx
    .select({ paymentId: paymentRefunds.paymentId })
    .from(paymentRefunds)
    .where(eq(paymentRefunds.id, refundId));
  const payment = unlocked?.paymentId ? await lockPayment(tx, unlocked.paymentId) : null;
  const [refund] = await tx
    .select()
    .from(paymentRefunds)
    .where(eq(paymentRefunds.id, refundId))
    .for("update");
  if (!refund || !payment || refund.status === "succeeded") return refund ?? null;

  const refundedAfter = Math.min(payment.amountMinor, payment.refundedMinor + refund.amountMinor);
  // Credits already taken back by earlier refunds (what they took and what was missing).
  const [earlier] = await tx
    .select({
      total: sql<number>`coalesce(sum(${paymentRefunds.creditsTaken} + ${paymentRefunds.creditsShortfall}), 0)::int`,
    })
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.paymentId, payment.id), eq(paymentRefunds.status, "succeeded")));
  // A failed payment granted nothing: nothing to take back. A withdrawal took its credits back
  // when it was claimed (decision 0065): nothing more now.
  const target =
    refund.kind === "withdrawal"
      ? Number(earlier?.total ?? 0)
      : payment.status === "failed"
        ? 0
        : refundedAfter >= payment.amountMinor || payment.amountMinor === 0
          ? payment.credits
          : Math.floor((payment.credits * refundedAfter) / payment.amountMinor);
  const owed = Math.max(0, target - Number(earlier?.total ?? 0));

  let taken = 0;
  // A deleted account's payment (userId null): its credits went with the account.
  if (owed > 0 && payment.userId) {
    const [user] = await tx
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, payment.userId))
      .for("update");
    taken = Math.min(owed, Math.max(0, user?.credits ?? 0));
    if (taken > 0) {
      await applyCreditMovement(tx, {
        userId: payment.userId,
        kind: "refund",
        amount: -taken,
        sourceKey: `refund:${refund.id}`,
        metadata: { paymentId: payment.id, refundId: refund.id, reason: refund.reason },
      });
    }
  }
  // A failed payment that still took money (a wrong amount) stays failed, its reason kept;
  // the refunded amount shows the money went back.
  const refundedInFull = refundedAfter >= payment.amountMinor && payment.status !== "failed";
  await tx
    .update(payments)
    .set({
      refundedMinor: refundedAfter,
      ...(refundedInFull ? { status: "refunded" as const } : {}),
    })
    .where(eq(payments.id, payment.id));
  const [settled] = await tx
    .update(paymentRefunds)
    .set({
      status: "succeeded",
      providerRefundId: providerRefundId ?? refund.providerRefundId,
      creditsTaken: refund.kind === "withdrawal" ? refund.creditsTaken : taken,
      creditsShortfall: refund.kind === "withdrawal" ? 0 : owed - taken,
      settledAt,
      error: null,
    })
    .where(eq(paymentRefunds.id, refund.id))
    .returning();
  if (settled) await auditSettledRefund(tx, payment, settled, refundedAfter, refundedInFull);
  return settled ?? refund;
}

/** A claim's metadata key for who asked for it (the admin's request), kept for its audit entry. */
export const AUDIT_ACTOR_KEY = "auditActor";

/** Who the audit log names for a refund: the admin who asked, else the system's origin. */
async function actorOfRefund(tx: Database, refund: PaymentRefundRow): Promise<AuditActor> {
  const kept = refund.metadata[AUDIT_ACTOR_KEY] as AuditActor | undefined;
  if (kept) return kept;
  if (refund.adminId) {
    // A claim written before its actor was kept: the admin is known, the request is not.
    const [admin] = await tx
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, refund.adminId));
    return {
      adminId: refund.adminId,
      adminEmail: admin?.email ?? "",
      ip: "",
      method: "POST",
      path: routePath(routes.adminBilling.refundPayment.path, { id: String(refund.paymentId) }),
    };
  }
  return systemActor(`refund:${refund.kind}`);
}

/**
 * The audit entry of a settled refund, in the settling transaction (DESIGN.md, money rules), so
 * a refund finished by the webhook or the sweep after a crash has its entry, exactly once (a
 * settled claim is never settled again).
 */
async function auditSettledRefund(
  tx: Database,
  payment: PaymentRow,
  refund: PaymentRefundRow,
  refundedAfter: number,
  refundedInFull: boolean,
): Promise<void> {
  const shown = (status: PaymentRow["status"], refundedMinor: number) => ({
    status,
    amount: toMajor(payment.amountMinor),
    refundedAmount: toMajor(refundedMinor),
    currency: payment.currency,
    userId: payment.userId,
  });
  await writeAuditEntry(tx, await actorOfRefund(tx, refund), {
    action: refund.kind === "dispute" ? "payment.dispute" : "payment.refund",
    targetType: "payment",
    targetId: payment.id,
    before: { ...shown(payment.status, payment.refundedMinor), reason: refund.reason },
    after: {
      payment: shown(refundedInFull ? "refunded" : payment.status, refundedAfter),
      refund: toPaymentRefund(refund),
    },
  });
}

/** A refund claim of a payment: what every kind of claim (admin, provider, dispute) holds. */
export const refundClaim = (
  payment: PaymentRow,
  claim: Pick<
    typeof paymentRefunds.$inferInsert,
    | "kind"
    | "amountMinor"
    | "reason"
    | "sourceKey"
    | "adminId"
    | "providerRefundId"
    | "metadata"
    // When a request makes it: on the billing clock, which the sweep reads its age on.
    | "createdAt"
  >,
): typeof paymentRefunds.$inferInsert => ({
  paymentId: payment.id,
  userId: payment.userId,
  provider: payment.provider,
  currency: payment.currency,
  ...claim,
});

/** The payment a provider payment id (payment intent or charge) belongs to, locked. */
async function paymentOfProviderIds(
  tx: Database,
  ids: Array<string | null>,
): Promise<PaymentRow | null> {
  const known = ids.filter((each): each is string => Boolean(each));
  if (known.length === 0) return null;
  const [found] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(inArray(payments.stripePaymentId, known), eq(payments.provider, "stripe")))
    .limit(1);
  return found ? lockPayment(tx, found.id) : null;
}

/** A refund or dispute made outside this app: claimed (once per provider id) and settled. */
async function recordExternal(
  tx: Database,
  payment: PaymentRow,
  input: { kind: "provider" | "dispute"; providerId: string; amountMinor: number; reason: string },
  at: Date,
) {
  const [known] = await tx
    .select({ id: paymentRefunds.id })
    .from(paymentRefunds)
    .where(eq(paymentRefunds.providerRefundId, input.providerId));
  if (known) return;
  const amountMinor = Math.min(input.amountMinor, await refundableMinor(tx, payment));
  const [claimed] = await tx
    .insert(paymentRefunds)
    .values(
      refundClaim(payment, {
        kind: input.kind,
        amountMinor: Math.max(0, amountMinor),
        reason: input.reason,
        providerRefundId: input.providerId,
        sourceKey: `${input.kind}:${input.providerId}`,
        createdAt: at,
      }),
    )
    .onConflictDoNothing()
    .returning({ id: paymentRefunds.id });
  if (claimed) await settleRefund(tx, claimed.id, input.providerId, at);
}

/**
 * `charge.refunded`: each refund of the charge once. A refund this app asked for names its row
 * in its metadata (that row is settled); one made in Stripe's dashboard gets a row of its own.
 */
export async function applyChargeRefunds(
  tx: Database,
  charge: ChargeInfo,
  at: Date,
): Promise<void> {
  const payment = await paymentOfProviderIds(tx, [charge.paymentIntentId, charge.id]);
  if (!payment) return;
  for (const refund of charge.refunds) {
    if (refund.status !== "succeeded" && refund.status !== "pending") continue;
    const ownId = refund.metadata.refundId;
    if (ownId) {
      const [own] = await tx
        .select({ id: paymentRefunds.id })
        .from(paymentRefunds)
        .where(and(eq(paymentRefunds.id, ownId), eq(paymentRefunds.paymentId, payment.id)));
      if (own) {
        await settleRefund(tx, own.id, refund.id, at);
        continue;
      }
    }
    await recordExternal(
      tx,
      payment,
      {
        kind: "provider",
        providerId: refund.id,
        amountMinor: refund.amountMinor,
        reason: "Refunded in the Stripe dashboard",
      },
      at,
    );
  }
}

/** `charge.dispute.created`: the disputed money is gone; the credits go back as for a refund. */
export async function applyDispute(tx: Database, dispute: DisputeInfo, at: Date): Promise<void> {
  const payment = await paymentOfProviderIds(tx, [dispute.paymentIntentId, dispute.chargeId]);
  if (!payment) return;
  await recordExternal(
    tx,
    payment,
    {
      kind: "dispute",
      providerId: dispute.id,
      amountMinor: dispute.amountMinor,
      reason: `Disputed by the card holder (${dispute.reason})`,
    },
    at,
  );
}

/**
 * A withdrawal's refund that the provider refused: the credits it took back when it was claimed
 * are given back, with its audit entry, in the transaction that marks it failed (decision 0065).
 */
export async function returnWithdrawnCredits(
  tx: Database,
  refund: PaymentRefundRow,
): Promise<void> {
  if (refund.kind !== "withdrawal") return;
  if (refund.creditsTaken > 0 && refund.userId) {
    await applyCreditMovement(tx, {
      userId: refund.userId,
      kind: "refund",
      amount: refund.creditsTaken,
      sourceKey: `withdrawal-returned:${refund.id}`,
      metadata: { paymentId: refund.paymentId, refundId: refund.id, reason: "Refund refused" },
    });
  }
  if (refund.paymentId) {
    await tx
      .update(payments)
      .set({ metadata: sql`${payments.metadata} - 'withdrawnAt'` })
      .where(eq(payments.id, refund.paymentId));
  }
  await writeAuditEntry(tx, await actorOfRefund(tx, refund), {
    action: "payment.withdrawal_failed",
    targetType: "payment",
    targetId: refund.paymentId,
    before: { refund: toPaymentRefund(refund) },
    after: { creditsReturned: refund.creditsTaken, error: refund.error },
  });
}
