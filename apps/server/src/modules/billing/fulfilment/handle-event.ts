import {
  type PaymentEvent,
  type PaymentsProvider,
  paymentIntentOfEvent,
} from "../../../providers/payments/index.ts";
import { applyChargeRefunds, applyDispute } from "../refunds/refunds-ledger.ts";
import { syncSubscription } from "../subscriptions/subscription-mirror.ts";
import { applyCheckout, applyFailedPaymentIntent } from "./checkout-outcome.ts";
import {
  alreadyHandled,
  type FulfilmentDeps,
  type HandledEvent,
  once,
} from "./fulfilment-transaction.ts";
import { recordFailedInvoice, recordPaidInvoice } from "./invoices.ts";
import {
  attemptOfEvent,
  CHECKOUT_EVENTS,
  INVOICE_EVENTS,
  PAYMENT_FAILED_EVENT,
  SUBSCRIPTION_EVENTS,
} from "./webhook-events.ts";

/** One event (verified webhook or sandbox): re-read, then applied exactly once. */
export async function handle(
  deps: FulfilmentDeps,
  event: PaymentEvent,
  source?: PaymentsProvider,
): Promise<HandledEvent> {
  // A cheap check first: a replay does not call the provider again.
  if (await alreadyHandled(deps.db, event.id)) return { duplicate: true };
  const provider = source ?? (await deps.payments());
  const objectId = String(event.data.object.id ?? "");
  if (CHECKOUT_EVENTS.has(event.type)) {
    const session = await provider.retrieveCheckoutSession(objectId);
    if (!session) return once(deps, event, provider, async () => {});
    const subscription =
      session.mode === "subscription" && session.subscriptionId
        ? await provider.retrieveSubscription(session.subscriptionId)
        : null;
    const invoice = subscription?.latestInvoiceId
      ? await provider.retrieveInvoice(subscription.latestInvoiceId)
      : null;
    const paymentIntent =
      event.type === "checkout.session.async_payment_failed" && session.paymentIntentId
        ? await provider.retrievePaymentIntent(session.paymentIntentId)
        : null;
    return once(
      deps,
      event,
      provider,
      (context) =>
        applyCheckout(context, {
          eventType: event.type,
          eventId: event.id,
          session,
          subscription,
          invoice,
          paymentIntent,
        }),
      session.metadata.userId ?? session.clientReferenceId,
    );
  }
  if (event.type === PAYMENT_FAILED_EVENT) {
    // The attempt is taken from the event, not re-read: the intent forgets its error at the
    // buyer's next attempt, while the event is that attempt (signed by Stripe). Its session
    // is re-read: Stripe's own link from the intent, which its metadata cannot name.
    const intent = paymentIntentOfEvent(event);
    const session = intent ? await provider.checkoutSessionOfPaymentIntent(intent.id) : null;
    return once(
      deps,
      event,
      provider,
      async (context) => {
        if (intent) await applyFailedPaymentIntent(context, { eventId: event.id, intent, session });
      },
      session?.metadata.userId ?? session?.clientReferenceId,
    );
  }
  if (SUBSCRIPTION_EVENTS.has(event.type)) {
    const subscription = await provider.retrieveSubscription(objectId);
    return once(
      deps,
      event,
      provider,
      async (context) => {
        await syncSubscription(context, subscription);
      },
      subscription?.metadata.userId,
    );
  }
  if (INVOICE_EVENTS.has(event.type)) {
    const invoice = await provider.retrieveInvoice(objectId);
    const subscription = invoice?.subscriptionId
      ? await provider.retrieveSubscription(invoice.subscriptionId)
      : null;
    return once(
      deps,
      event,
      provider,
      async (context) => {
        if (!invoice) return;
        const row = await syncSubscription(context, subscription);
        if (!row) return;
        if (event.type === "invoice.payment_failed") {
          await recordFailedInvoice(context, invoice, row, attemptOfEvent(event));
        } else {
          await recordPaidInvoice(context, invoice, row, null);
        }
      },
      subscription?.metadata.userId,
    );
  }
  if (event.type === "charge.refunded") {
    const charge = await provider.retrieveCharge(objectId);
    return once(deps, event, provider, async ({ tx, now }) => {
      if (charge) await applyChargeRefunds(tx, charge, now());
    });
  }
  if (event.type === "charge.dispute.created") {
    const dispute = await provider.retrieveDispute(objectId);
    return once(deps, event, provider, async ({ tx, now }) => {
      if (dispute) await applyDispute(tx, dispute, now());
    });
  }
  return once(deps, event, provider, async () => {});
}
