// Stripe's objects as the app's *Info types (types.ts): what each use case answers.
import type Stripe from "stripe";
import type {
  ChargeInfo,
  CheckoutSessionInfo,
  DisputeInfo,
  InvoiceInfo,
  PaymentIntentInfo,
  ProviderPrice,
  ProviderProduct,
  ProviderSubscriptionStatus,
  Recurring,
  RefundInfo,
  SubscriptionInfo,
} from "../types.ts";

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

const date = (seconds: number | null | undefined): Date | null =>
  seconds == null ? null : new Date(seconds * 1000);

export const toProduct = (product: Stripe.Product): ProviderProduct => ({
  id: product.id,
  name: product.name,
  active: product.active,
  metadata: { ...product.metadata },
});

const toRecurring = (recurring: Stripe.Price.Recurring | null | undefined): Recurring | null =>
  recurring
    ? {
        interval: recurring.interval as Recurring["interval"],
        intervalCount: recurring.interval_count,
      }
    : null;

export const toPrice = (price: Stripe.Price): ProviderPrice => ({
  id: price.id,
  productId: idOf(price.product as string | Stripe.Product) ?? "",
  active: price.active,
  amountMinor: price.unit_amount ?? 0,
  currency: price.currency,
  recurring: toRecurring(price.recurring),
});

export function toSubscription(subscription: Stripe.Subscription): SubscriptionInfo {
  const item = subscription.items?.data?.[0];
  const created = new Date(subscription.created * 1000);
  return {
    id: subscription.id,
    status: subscription.status as ProviderSubscriptionStatus,
    customerId: idOf(subscription.customer as string | Stripe.Customer),
    itemId: item?.id ?? null,
    priceId: item?.price?.id ?? null,
    amountMinor: item?.price?.unit_amount ?? 0,
    currency: item?.price?.currency ?? subscription.currency,
    recurring: toRecurring(item?.price?.recurring),
    // Since API 2025-03-31 the period is the item's.
    currentPeriodStart: date(item?.current_period_start) ?? created,
    currentPeriodEnd: date(item?.current_period_end) ?? created,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    canceledAt: date(subscription.canceled_at),
    trialEnd: date(subscription.trial_end),
    metadata: { ...subscription.metadata },
    latestInvoiceId: idOf(subscription.latest_invoice as string | Stripe.Invoice | null),
    created,
  };
}

export function toInvoice(invoice: Stripe.Invoice): InvoiceInfo {
  const parent = invoice.parent?.subscription_details?.subscription;
  const payment = invoice.payments?.data?.[0]?.payment;
  const line = invoice.lines?.data?.[0];
  return {
    id: invoice.id ?? "",
    number: invoice.number ?? null,
    status: (invoice.status ?? "draft") as InvoiceInfo["status"],
    subscriptionId: idOf(parent as string | Stripe.Subscription | null | undefined),
    amountPaid: invoice.amount_paid,
    amountDue: invoice.amount_due,
    totalMinor: invoice.total,
    // The balance is negative while it holds credit: what it rose by is the credit used.
    creditAppliedMinor: Math.max(
      0,
      (invoice.ending_balance ?? 0) - (invoice.starting_balance ?? 0),
    ),
    subscriptionMetadata: { ...(invoice.parent?.subscription_details?.metadata ?? {}) },
    currency: invoice.currency,
    billingReason: invoice.billing_reason ?? null,
    paymentId:
      idOf(payment?.payment_intent as string | Stripe.PaymentIntent | undefined) ??
      idOf(payment?.charge as string | Stripe.Charge | undefined),
    periodStart: date(line?.period?.start ?? invoice.period_start),
    periodEnd: date(line?.period?.end ?? invoice.period_end),
    created: new Date(invoice.created * 1000),
    attemptCount: invoice.attempt_count ?? 0,
  };
}

export function toSession(session: Stripe.Checkout.Session): CheckoutSessionInfo {
  return {
    id: session.id,
    mode: session.mode === "subscription" ? "subscription" : "payment",
    status: (session.status ?? "open") as CheckoutSessionInfo["status"],
    paymentStatus: session.payment_status as CheckoutSessionInfo["paymentStatus"],
    clientReferenceId: session.client_reference_id,
    metadata: { ...(session.metadata ?? {}) },
    subscriptionId: idOf(session.subscription as string | Stripe.Subscription | null),
    paymentIntentId: idOf(session.payment_intent as string | Stripe.PaymentIntent | null),
    customerId: idOf(session.customer as string | Stripe.Customer | null),
    amountTotal: session.amount_total ?? 0,
    currency: session.currency ?? "usd",
  };
}

export function toPaymentIntent(intent: Stripe.PaymentIntent): PaymentIntentInfo {
  const error = intent.last_payment_error;
  return {
    id: intent.id,
    status: intent.status as PaymentIntentInfo["status"],
    amountMinor: intent.amount,
    currency: intent.currency,
    metadata: { ...(intent.metadata ?? {}) },
    lastPaymentError: error
      ? { message: error.message ?? null, code: error.code ?? null, chargeId: error.charge ?? null }
      : null,
  };
}

export function toRefund(refund: Stripe.Refund): RefundInfo {
  return {
    id: refund.id,
    paymentId:
      idOf(refund.payment_intent as string | Stripe.PaymentIntent | null) ??
      idOf(refund.charge as string | Stripe.Charge | null),
    amountMinor: refund.amount,
    currency: refund.currency,
    status: (refund.status ?? "pending") as RefundInfo["status"],
    metadata: { ...(refund.metadata ?? {}) },
  };
}

export function toCharge(charge: Stripe.Charge): ChargeInfo {
  return {
    id: charge.id,
    paymentIntentId: idOf(charge.payment_intent as string | Stripe.PaymentIntent | null),
    amountMinor: charge.amount,
    amountRefundedMinor: charge.amount_refunded,
    currency: charge.currency,
    refunds: (charge.refunds?.data ?? []).map(toRefund),
  };
}

export function toDispute(dispute: Stripe.Dispute): DisputeInfo {
  return {
    id: dispute.id,
    chargeId: idOf(dispute.charge as string | Stripe.Charge),
    paymentIntentId: idOf(dispute.payment_intent as string | Stripe.PaymentIntent | null),
    amountMinor: dispute.amount,
    currency: dispute.currency,
    status: dispute.status,
    reason: dispute.reason,
  };
}
