import type { AdminPaymentDetails, CheckoutConsent } from "@twinline/contracts";
import { and, asc, desc, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  type CheckoutConsentRow,
  checkoutConsents,
  type PaymentRow,
  paymentRefunds,
  payments,
} from "../../../db/schema/index.ts";
import { toMajor } from "../../../lib/money.ts";
import { toPaymentRefund } from "../refunds/refunds-ledger.ts";

export const toCheckoutConsent = (row: CheckoutConsentRow): CheckoutConsent => ({
  _id: row.id,
  kind: row.kind,
  version: row.version,
  text: row.text,
  packageId: row.packageId,
  planId: row.planId,
  price: toMajor(row.amountMinor),
  currency: row.currency,
  ipAddress: row.ipAddress,
  acceptedAt: row.acceptedAt.toISOString(),
});

/**
 * The checkout a payment came from: its own, or for a plan's renewal and changes, the checkout
 * that started its subscription (the renewal terms were agreed there).
 */
async function checkoutSessionOf(db: Database, payment: PaymentRow): Promise<string | null> {
  if (payment.checkoutSessionId) return payment.checkoutSessionId;
  if (!payment.subscriptionId) return null;
  const [first] = await db
    .select({ sessionId: payments.checkoutSessionId })
    .from(payments)
    .where(
      and(
        eq(payments.subscriptionId, payment.subscriptionId),
        isNotNull(payments.checkoutSessionId),
      ),
    )
    .orderBy(asc(payments.transactionDate))
    .limit(1);
  return first?.sessionId ?? null;
}

/** GET /api/admin/payments/{id}: the payment, its consent, its refunds and withdrawal. */
export async function paymentDetails(
  db: Database,
  payment: PaymentRow,
): Promise<AdminPaymentDetails> {
  const sessionId = await checkoutSessionOf(db, payment);
  const [consent] = sessionId
    ? await db
        .select()
        .from(checkoutConsents)
        .where(eq(checkoutConsents.checkoutSessionId, sessionId))
    : [];
  const refunds = await db
    .select()
    .from(paymentRefunds)
    .where(eq(paymentRefunds.paymentId, payment.id))
    .orderBy(desc(paymentRefunds.createdAt));
  const withdrawnAt = payment.metadata.withdrawnAt;
  return {
    payment: {
      _id: payment.id,
      kind: payment.kind,
      itemName: payment.itemName,
      status: payment.status,
      amount: toMajor(payment.amountMinor),
      refundedAmount: toMajor(payment.refundedMinor),
      currency: payment.currency,
      credits: payment.credits,
      transactionDate: payment.transactionDate.toISOString(),
      withdrawnAt: typeof withdrawnAt === "string" ? withdrawnAt : null,
    },
    consent: consent ? toCheckoutConsent(consent) : null,
    refunds: refunds.map(toPaymentRefund),
  };
}
