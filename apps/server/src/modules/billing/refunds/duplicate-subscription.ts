import { eq } from "drizzle-orm";
import {
  type PaymentRefundRow,
  paymentRefunds,
  payments,
  subscriptionPlans,
} from "../../../db/schema/index.ts";
import { invoicePayment } from "../fulfilment/invoice-payment.ts";
import { executeRefund, providerOf, type RefundDeps } from "./refund-execution.ts";

/**
 * A second subscription's payment (decision 0051): its subscription ended at the provider, the
 * payment recorded, then refunded; when nothing was charged the claim is settled at 0.
 */
export async function settleDuplicate(deps: RefundDeps, row: PaymentRefundRow) {
  const { db } = deps;
  const provider = await providerOf(deps, row.provider);
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
      .set({ status: "succeeded", amountMinor: 0, settledAt: new Date(deps.clock.now()) })
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
        ...invoicePayment(invoice, {
          userId: row.userId,
          provider: row.provider,
          subscriptionId: null,
          planId: plan?.id ?? null,
        }),
        itemName: plan?.name ?? "Subscription",
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
  if (fresh) await executeRefund(deps, fresh, invoice.paymentId);
}
