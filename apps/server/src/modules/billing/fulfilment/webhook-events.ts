import type { PaymentEvent } from "../../../providers/payments/index.ts";

export const CHECKOUT_EVENTS = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
]);
export const SUBSCRIPTION_EVENTS = new Set([
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
]);
export const INVOICE_EVENTS = new Set([
  "invoice.paid",
  "invoice.payment_succeeded",
  "invoice.payment_failed",
]);
/** A failed attempt at a hosted checkout (the session stays open for another). */
export const PAYMENT_FAILED_EVENT = "payment_intent.payment_failed";

/** Every event the Stripe webhook endpoint must be subscribed to (README, configuration). */
export const WEBHOOK_EVENTS: readonly string[] = [
  ...CHECKOUT_EVENTS,
  ...SUBSCRIPTION_EVENTS,
  ...INVOICE_EVENTS,
  PAYMENT_FAILED_EVENT,
  "charge.refunded",
  "charge.dispute.created",
];

/** The invoice's attempt_count as the event carries it: the attempt it tells of. */
export const attemptOfEvent = (event: PaymentEvent): number | null => {
  const count = event.data.object.attempt_count;
  return typeof count === "number" && Number.isInteger(count) && count > 0 ? count : null;
};
