import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../../db/client.ts";
import {
  processedWebhookEvents,
  type UserSubscriptionRow,
  users,
} from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { isUuid } from "../../../lib/search.ts";
import {
  type InvoiceInfo,
  type PaymentEvent,
  type PaymentsProvider,
  paymentIntentOfEvent,
  type SubscriptionInfo,
} from "../../../providers/payments/index.ts";
import { applyChargeRefunds, applyDispute } from "../refunds/refunds-ledger.ts";
import { releasePlanChangeClaim } from "../subscriptions/plan-change-claims.ts";
import { syncSubscription } from "../subscriptions/subscription-mirror.ts";
import { applyCheckout, applyFailedPaymentIntent } from "./checkout-outcome.ts";
import type { EventContext, EventEffects, FulfilmentProbe } from "./event-context.ts";
import { recordFailedInvoice, recordPaidInvoice } from "./invoices.ts";

export type { FulfilmentProbe } from "./event-context.ts";

export interface FulfilmentOptions {
  db: Database;
  payments: () => Promise<PaymentsProvider>;
  log: FastifyBaseLogger;
  /** THE billing clock: the times the events' writes stamp (the sweeps and screens read them). */
  clock: Clock;
  /**
   * Called after an event's transaction committed when it found a second subscription of a
   * user (decision 0051): the refunds service ends it and refunds its payment.
   */
  onDuplicateSubscription?: (userId: string) => Promise<void>;
  /** Called after every event's transaction committed: it may have queued e-mail to send. */
  afterCommit?: () => void;
}

export interface HandledEvent {
  /** The event id was handled before: nothing changed. */
  duplicate: boolean;
}

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

type Apply<T> = (context: EventContext) => Promise<T>;

/** The invoice's attempt_count as the event carries it: the attempt it tells of. */
const attemptOfEvent = (event: PaymentEvent): number | null => {
  const count = event.data.object.attempt_count;
  return typeof count === "number" && Number.isInteger(count) && count > 0 ? count : null;
};

/**
 * THE fulfilment of payments, for Stripe's webhooks and the sandbox's events alike
 * (docs/decisions/0017). Each event's object is re-read from the provider (events may come out
 * of order, or be stale), then everything it causes is written in ONE transaction together with
 * the event id (processed_webhook_events): credits through applyCreditMovement with source keys
 * `checkout:<sessionId>` / `invoice:<id>`, the payment row (unique source key), the subscription
 * mirror (row-locked) and the history events (unique source keys). A replay, a concurrent
 * delivery, or a second event about the same session changes nothing; a failure half-way
 * leaves nothing behind and a retry applies it once.
 */
export function createFulfilment(options: FulfilmentOptions) {
  const { db, log } = options;
  const state: { probe: FulfilmentProbe | null } = { probe: null };
  const probe = async (step: Parameters<FulfilmentProbe>[0]) => {
    if (state.probe) await state.probe(step);
  };

  /**
   * Runs `apply` in one transaction with the user's row locked first: every write about one
   * user is applied one at a time, in one lock order (two parallel plan payments cannot both
   * see "no subscription", nor deadlock). Second subscriptions it found are refunded after the
   * commit.
   */
  const transact = async <T>(
    provider: PaymentsProvider,
    userId: string | null | undefined,
    apply: Apply<T>,
  ): Promise<T> => {
    const effects: EventEffects = { duplicateOf: new Set() };
    const result = await db.transaction(async (tx) => {
      if (userId && isUuid(userId)) {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
      }
      const now = () => new Date(options.clock.now());
      return apply({ tx, now, provider, log, probe, effects });
    });
    options.afterCommit?.();
    for (const duplicateOf of effects.duplicateOf) {
      // The claim is committed: a failure here is settled later by the refunds sweep.
      await options.onDuplicateSubscription?.(duplicateOf).catch((error: unknown) => {
        log.error({ err: error, userId: duplicateOf }, "Refund of a second subscription failed");
      });
    }
    return result;
  };

  /** Runs `apply` with the event id recorded in the same transaction; a known id: nothing. */
  const once = (
    event: PaymentEvent,
    provider: PaymentsProvider,
    apply: Apply<void>,
    userId?: string | null,
  ): Promise<HandledEvent> =>
    transact(provider, userId, async (context) => {
      const recorded = await context.tx
        .insert(processedWebhookEvents)
        .values({ eventId: event.id, type: event.type })
        .onConflictDoNothing({ target: processedWebhookEvents.eventId })
        .returning({ eventId: processedWebhookEvents.eventId });
      if (recorded.length === 0) return { duplicate: true };
      await probe("event-recorded");
      await apply(context);
      return { duplicate: false };
    });

  const alreadyHandled = async (eventId: string) => {
    const [row] = await db
      .select({ eventId: processedWebhookEvents.eventId })
      .from(processedWebhookEvents)
      .where(eq(processedWebhookEvents.eventId, eventId));
    return Boolean(row);
  };

  return {
    state,

    /** One event (verified webhook or sandbox): re-read, then applied exactly once. */
    async handle(event: PaymentEvent, source?: PaymentsProvider): Promise<HandledEvent> {
      // A cheap check first: a replay does not call the provider again.
      if (await alreadyHandled(event.id)) return { duplicate: true };
      const provider = source ?? (await options.payments());
      const objectId = String(event.data.object.id ?? "");
      if (CHECKOUT_EVENTS.has(event.type)) {
        const session = await provider.retrieveCheckoutSession(objectId);
        if (!session) return once(event, provider, async () => {});
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
          event,
          provider,
          async (context) => {
            if (intent)
              await applyFailedPaymentIntent(context, { eventId: event.id, intent, session });
          },
          session?.metadata.userId ?? session?.clientReferenceId,
        );
      }
      if (SUBSCRIPTION_EVENTS.has(event.type)) {
        const subscription = await provider.retrieveSubscription(objectId);
        return once(
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
        return once(event, provider, async ({ tx, now }) => {
          if (charge) await applyChargeRefunds(tx, charge, now());
        });
      }
      if (event.type === "charge.dispute.created") {
        const dispute = await provider.retrieveDispute(objectId);
        return once(event, provider, async ({ tx, now }) => {
          if (dispute) await applyDispute(tx, dispute, now());
        });
      }
      return once(event, provider, async () => {});
    },

    /**
     * Settles a plan change's claim (docs/decisions/0034, 0055) in ONE transaction: the mirror
     * brought to the provider's subscription, the change's invoice recorded as its webhook
     * would (same source key, so whichever comes second changes nothing: payment row and plan
     * credits once), and the claim released. A crash before the commit leaves the claim for the
     * plan-change sweep; after it, there is nothing left to do.
     */
    async settlePlanChange(
      claim: { subscriptionRowId: string; userId: string | null; changeKey: string },
      subscription: SubscriptionInfo | null,
      invoice: InvoiceInfo | null,
      provider: PaymentsProvider,
    ): Promise<void> {
      await transact(provider, claim.userId, async (context) => {
        const row = await syncSubscription(context, subscription);
        if (row && invoice) await recordPaidInvoice(context, invoice, row, null);
        await releasePlanChangeClaim(context.tx, claim);
      });
    },

    /** The mirror of one subscription brought to the provider's state now (plan change, cancel). */
    async refreshSubscription(
      subscription: SubscriptionInfo,
      provider: PaymentsProvider,
    ): Promise<UserSubscriptionRow | null> {
      return transact(provider, subscription.metadata.userId, (context) =>
        syncSubscription(context, subscription),
      );
    },
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
