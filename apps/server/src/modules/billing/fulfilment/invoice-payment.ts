import type { payments } from "../../../db/schema/index.ts";
import type { InvoiceInfo } from "../../../providers/payments/index.ts";
import { currencyOf } from "./event-context.ts";

type PaymentInsert = typeof payments.$inferInsert;

/** Whose invoice it is: the fan's subscription row, or (a duplicate) none. */
export type InvoiceOwner = Pick<PaymentInsert, "userId" | "provider"> & {
  subscriptionId: string | null;
  planId: string | null;
};

/**
 * The payment row of a paid subscription invoice: what every outcome of one has in common, the
 * webhook's and the duplicate subscription's refund alike. Its source key makes it once-only.
 */
export const invoicePayment = (invoice: InvoiceInfo, owner: InvoiceOwner): PaymentInsert => ({
  kind: "subscription",
  userId: owner.userId,
  status: "success",
  amountMinor: invoice.amountPaid,
  currency: currencyOf(invoice.currency),
  planId: owner.planId,
  subscriptionId: owner.subscriptionId,
  itemName: "Subscription",
  provider: owner.provider,
  stripePaymentId: invoice.paymentId,
  invoiceId: invoice.id,
  invoiceNumber: invoice.number,
  sourceKey: `invoice:${invoice.id}`,
  // The provider's own time (the sandbox's is the billing clock): renewals date by their invoice.
  transactionDate: invoice.created,
});
