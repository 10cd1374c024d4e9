import { randomUUID } from "node:crypto";
import type { SubscriptionStatus } from "@twinline/contracts";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import {
  billingPrices,
  type CheckoutSessionRow,
  checkoutSessions,
  paymentRefunds,
  payments,
  processedWebhookEvents,
  subscriptionEvents,
  subscriptionPlans,
  type UserSubscriptionRow,
  userSubscriptions,
  users,
} from "../../db/schema/index.ts";
import type {
  CheckoutSessionInfo,
  Currency,
  InvoiceInfo,
  PaymentEvent,
  PaymentsProvider,
  ProviderSubscriptionStatus,
  SubscriptionInfo,
} from "../../providers/payments/index.ts";
import { applyCreditMovement } from "../credits/ledger.ts";
import { recordFailedCheckout } from "./failed-payments.ts";
import { invoiceEntry } from "./invoice-entry.ts";
import { applyChargeRefunds, applyDispute } from "./refunds-ledger.ts";
import { type MoneyAmount, paymentMismatch } from "./verify-payment.ts";

/**
 * Where a test may make fulfilment fail half-way: called inside the transaction after each
 * step. Throwing rolls the whole event back (nothing is recorded, the event is not marked done).
 */
export type FulfilmentProbe = (
  step: "event-recorded" | "credits-granted" | "payment-recorded",
) => void | Promise<void>;

export interface FulfilmentOptions {
  db: Database;
  payments: () => Promise<PaymentsProvider>;
  log: FastifyBaseLogger;
  /**
   * Called after an event's transaction committed when it found a second subscription of a
   * user (decision 0051): the refunds service ends it and refunds its payment.
   */
  onDuplicateSubscription?: (userId: string) => Promise<void>;
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What one event's transaction found that must be acted on once it committed. */
interface EventEffects {
  duplicateOf: Set<string>;
}

/**
 * A package checkout's paid payment, at the amount the provider took (verified equal to the
 * price). It shares the session's source key with an asynchronous failure: one row per session,
 * which a later success takes over.
 */
const checkoutPayment = (
  row: CheckoutSessionRow,
  session: CheckoutSessionInfo,
): typeof payments.$inferInsert => ({
  kind: "credits",
  userId: row.userId,
  status: "success",
  amountMinor: session.amountTotal,
  currency: row.currency,
  credits: row.credits ?? 0,
  packageId: row.packageId,
  itemName: row.itemName,
  provider: row.provider,
  stripePaymentId: session.paymentIntentId,
  checkoutSessionId: row.sessionId,
  sourceKey: `checkout:${row.sessionId}`,
});

/** Stripe's subscription states in the five of the spec. */
export function toSubscriptionStatus(status: ProviderSubscriptionStatus): SubscriptionStatus {
  switch (status) {
    case "active":
    case "trialing":
      return "active";
    case "past_due":
      return "past_due";
    case "unpaid":
      return "unpaid";
    case "canceled":
    case "incomplete_expired":
      return "canceled";
    default:
      return "incomplete";
  }
}

const currencyOf = (value: string): Currency =>
  (["usd", "eur", "gbp", "inr"].includes(value.toLowerCase())
    ? value.toLowerCase()
    : "usd") as Currency;

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

  const planOf = async (tx: Database, planId: string) => {
    const [plan] = await tx
      .select()
      .from(subscriptionPlans)
      .where(eq(subscriptionPlans.id, planId));
    return plan;
  };

  const history = async (
    tx: Database,
    row: UserSubscriptionRow,
    planName: string,
    eventType: "created" | "updated" | "canceled" | "renewed" | "payment_failed",
    sourceKey: string,
    amountMinor = row.priceMinor,
  ) => {
    await tx
      .insert(subscriptionEvents)
      .values({
        userId: row.userId,
        subscriptionId: row.id,
        planId: row.planId,
        planName,
        eventType,
        status: row.status,
        startDate: row.currentPeriodStart,
        endDate: row.currentPeriodEnd,
        amountMinor,
        currency: row.currency,
        autoRenew: !row.cancelAtPeriodEnd && row.status !== "canceled",
        providerSubscriptionId: row.providerSubscriptionId,
        sourceKey,
      })
      .onConflictDoNothing({ target: subscriptionEvents.sourceKey });
  };

  /**
   * The local mirror of a provider subscription, brought to the provider's state (row-locked),
   * with the history events its changes make. The owner and plan come from the subscription's
   * metadata (set at checkout and on each plan change), else from `fallback` (the checkout row).
   */
  /**
   * One subscription per user (decision 0051): a provider subscription not mirrored yet, of a
   * user who has another one in force, is a duplicate (two checkouts paid). It is never
   * mirrored; a claim is written (once) for the refunds service to end it and refund it.
   * The caller holds the user's row lock, so of two parallel payments exactly one is first.
   */
  const isDuplicate = async (
    tx: Database,
    provider: PaymentsProvider,
    subscription: SubscriptionInfo,
    userId: string,
    planId: string,
    effects?: EventEffects,
  ): Promise<boolean> => {
    const sourceKey = `duplicate:${subscription.id}`;
    const [claimed] = await tx
      .select({ id: paymentRefunds.id })
      .from(paymentRefunds)
      .where(eq(paymentRefunds.sourceKey, sourceKey));
    if (claimed) return true;
    const [other] = await tx
      .select({ id: userSubscriptions.id })
      .from(userSubscriptions)
      .where(
        and(
          eq(userSubscriptions.userId, userId),
          inArray(userSubscriptions.status, ["active", "past_due"]),
          ne(userSubscriptions.providerSubscriptionId, subscription.id),
        ),
      )
      .limit(1);
    if (!other) return false;
    await tx
      .insert(paymentRefunds)
      .values({
        userId,
        kind: "duplicate_subscription",
        provider: provider.mode,
        amountMinor: subscription.amountMinor,
        currency: currencyOf(subscription.currency),
        reason: "A second subscription was paid while one was active: refunded automatically",
        sourceKey,
        metadata: { providerSubscriptionId: subscription.id, planId },
      })
      .onConflictDoNothing();
    log.warn({ userId, subscriptionId: subscription.id }, "Second subscription paid: refunding it");
    effects?.duplicateOf.add(userId);
    return true;
  };

  const syncSubscription = async (
    tx: Database,
    provider: PaymentsProvider,
    subscription: SubscriptionInfo | null,
    fallback?: { userId: string; planId: string | null },
    effects?: EventEffects,
  ): Promise<UserSubscriptionRow | null> => {
    if (!subscription) return null;
    const [existing] = await tx
      .select()
      .from(userSubscriptions)
      .where(eq(userSubscriptions.providerSubscriptionId, subscription.id))
      .for("update");
    const userId = existing?.userId ?? subscription.metadata.userId ?? fallback?.userId;
    const planId = subscription.metadata.planId ?? existing?.planId ?? fallback?.planId;
    if (!userId || !planId) return null;
    const plan = await planOf(tx, planId);
    if (!plan) return null;
    const values = {
      userId,
      planId,
      provider: provider.mode,
      providerSubscriptionId: subscription.id,
      providerCustomerId: subscription.customerId,
      priceId: subscription.priceId,
      priceMinor: subscription.amountMinor,
      currency: currencyOf(subscription.currency),
      status: toSubscriptionStatus(subscription.status),
      currentPeriodStart: subscription.currentPeriodStart,
      currentPeriodEnd: subscription.currentPeriodEnd,
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      canceledAt: subscription.canceledAt,
    };
    if (!existing) {
      if (await isDuplicate(tx, provider, subscription, userId, planId, effects)) return null;
      const [inserted] = await tx
        .insert(userSubscriptions)
        .values({ ...values, createdAt: subscription.created })
        .onConflictDoNothing({ target: userSubscriptions.providerSubscriptionId })
        .returning();
      if (inserted) {
        await history(tx, inserted, plan.name, "created", `sub:${subscription.id}:created`);
        if (inserted.cancelAtPeriodEnd) {
          await history(
            tx,
            inserted,
            plan.name,
            "canceled",
            `sub:${subscription.id}:cancel-requested`,
          );
        }
        return inserted;
      }
      // Inserted meanwhile by a concurrent event: lock it and carry on as an update.
      return syncSubscription(tx, provider, subscription, fallback, effects);
    }
    const [updated] = await tx
      .update(userSubscriptions)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(userSubscriptions.id, existing.id))
      .returning();
    if (!updated) return existing;
    if (existing.planId !== updated.planId || existing.priceId !== updated.priceId) {
      await history(
        tx,
        updated,
        plan.name,
        "updated",
        `sub:${subscription.id}:updated:${randomUUID()}`,
      );
    }
    if (!existing.cancelAtPeriodEnd && updated.cancelAtPeriodEnd && updated.status !== "canceled") {
      await history(
        tx,
        updated,
        plan.name,
        "canceled",
        `sub:${subscription.id}:cancel-requested:${updated.currentPeriodEnd.toISOString()}`,
      );
    }
    if (existing.status !== "canceled" && updated.status === "canceled") {
      await history(tx, updated, plan.name, "canceled", `sub:${subscription.id}:ended`);
    }
    return updated;
  };

  /**
   * What a subscription's invoice must bill (docs/decisions/0036): the first one the plan price
   * of its checkout, else the price the subscription is on (the Price this app made at Stripe,
   * the sandbox's own record); a renewal the same. Prorations are the provider's computation:
   * not checked here.
   */
  const soldFor = async (
    tx: Database,
    invoice: InvoiceInfo,
    row: UserSubscriptionRow,
    checkout: CheckoutSessionRow | null,
  ): Promise<MoneyAmount | null> => {
    if (
      invoice.billingReason !== "subscription_create" &&
      invoice.billingReason !== "subscription_cycle"
    )
      return null;
    if (checkout && invoice.billingReason === "subscription_create") {
      return { amountMinor: checkout.amountMinor, currency: checkout.currency };
    }
    const madeFor = invoice.subscriptionMetadata.planId;
    // Made before a plan change (a declined renewal paid on retry after it): the row's price is
    // the new plan's, not what this invoice sold; the provider billed it as it was made.
    if (madeFor && madeFor !== row.planId) return null;
    if (row.priceId) {
      const [price] = await tx
        .select({ amountMinor: billingPrices.amountMinor, currency: billingPrices.currency })
        .from(billingPrices)
        .where(eq(billingPrices.priceId, row.priceId));
      if (price) return price;
    }
    return row.provider === "sandbox"
      ? { amountMinor: row.priceMinor, currency: row.currency }
      : null;
  };

  /**
   * A paid invoice of a subscription: the payment, the plan's credits, "renewed" on a cycle.
   * Answers false when the amount paid does not match the sale (recorded failed, nothing granted).
   */
  const recordPaidInvoice = async (
    tx: Database,
    invoice: InvoiceInfo,
    row: UserSubscriptionRow,
    checkout: CheckoutSessionRow | null,
  ): Promise<boolean> => {
    if (invoice.status !== "paid") return true;
    const checkoutSessionId = checkout?.sessionId ?? null;
    // The plan the invoice was made for (a later change may have moved the row on).
    const planId = invoice.subscriptionMetadata.planId ?? row.planId;
    const plan = await planOf(tx, planId);
    const planName = plan?.name ?? "Subscription";
    const sold = await soldFor(tx, invoice, row, checkout);
    const mismatch =
      sold &&
      paymentMismatch(sold, { amountMinor: invoice.totalMinor, currency: invoice.currency });
    if (mismatch) {
      await tx
        .insert(payments)
        .values({
          kind: "subscription",
          userId: row.userId,
          status: "failed",
          amountMinor: invoice.amountPaid,
          currency: currencyOf(invoice.currency),
          planId,
          subscriptionId: row.id,
          itemName: planName,
          provider: row.provider,
          stripePaymentId: invoice.paymentId,
          invoiceId: invoice.id,
          invoiceNumber: invoice.number,
          checkoutSessionId,
          sourceKey: `invoice:${invoice.id}`,
          transactionDate: invoice.created,
          metadata: {
            billingReason: invoice.billingReason,
            failureReason: mismatch,
            charged: { amountMinor: invoice.amountPaid, currency: invoice.currency },
          },
        })
        .onConflictDoNothing({ target: payments.sourceKey });
      log.warn({ invoiceId: invoice.id, mismatch }, "Subscription payment does not match the sale");
      return false;
    }
    const previousPlanId = invoice.subscriptionMetadata.previousPlanId;
    const previous = previousPlanId ? await planOf(tx, previousPlanId) : undefined;
    const entry = invoiceEntry(invoice, planName, plan?.credits ?? 0, previous?.credits ?? null);
    const grants = entry.credits > 0;
    const [inserted] = await tx
      .insert(payments)
      .values({
        kind: "subscription",
        userId: row.userId,
        status: entry.status,
        amountMinor: entry.amountMinor,
        currency: currencyOf(invoice.currency),
        credits: entry.credits,
        planId,
        subscriptionId: row.id,
        itemName: entry.itemName,
        provider: row.provider,
        stripePaymentId: invoice.paymentId,
        invoiceId: invoice.id,
        invoiceNumber: invoice.number,
        checkoutSessionId,
        sourceKey: `invoice:${invoice.id}`,
        transactionDate: invoice.created,
        metadata: {
          billingReason: invoice.billingReason,
          totalMinor: invoice.totalMinor,
          creditAppliedMinor: invoice.creditAppliedMinor,
        },
      })
      .onConflictDoNothing({ target: payments.sourceKey })
      .returning({ id: payments.id });
    if (!inserted) return true;
    await probe("payment-recorded");
    if (grants && plan) {
      await applyCreditMovement(tx, {
        userId: row.userId,
        kind: "subscription_grant",
        amount: entry.credits,
        sourceKey: `invoice:${invoice.id}`,
        metadata: { planId: plan.id, invoiceId: invoice.id },
      });
      await probe("credits-granted");
    }
    if (invoice.billingReason === "subscription_cycle") {
      await history(
        tx,
        row,
        planName,
        "renewed",
        `invoice:${invoice.id}:renewed`,
        invoice.amountPaid,
      );
    }
    return true;
  };

  const recordFailedInvoice = async (
    tx: Database,
    invoice: InvoiceInfo,
    row: UserSubscriptionRow,
  ) => {
    // The plan the invoice was made for (the subscription may have changed plan since).
    const planId = invoice.subscriptionMetadata.planId ?? row.planId;
    const plan = await planOf(tx, planId);
    const planName = plan?.name ?? "Subscription";
    const attempt = Math.max(invoice.attemptCount, 1);
    await tx
      .insert(payments)
      .values({
        kind: "subscription",
        userId: row.userId,
        status: "failed",
        amountMinor: invoice.amountDue,
        currency: currencyOf(invoice.currency),
        planId,
        subscriptionId: row.id,
        itemName: planName,
        provider: row.provider,
        stripePaymentId: invoice.paymentId,
        invoiceId: invoice.id,
        invoiceNumber: invoice.number,
        sourceKey: `invoice:${invoice.id}:failed:${attempt}`,
        transactionDate: new Date(),
        metadata: { billingReason: invoice.billingReason, attempt },
      })
      .onConflictDoNothing({ target: payments.sourceKey });
    await history(
      tx,
      row,
      planName,
      "payment_failed",
      `invoice:${invoice.id}:payment_failed:${attempt}`,
      invoice.amountDue,
    );
  };

  /** A checkout session's outcome, once per session (its row locked, `fulfilled_at` set). */
  const applyCheckout = async (
    tx: Database,
    provider: PaymentsProvider,
    eventType: string,
    session: CheckoutSessionInfo,
    subscription: SubscriptionInfo | null,
    invoice: InvoiceInfo | null,
    effects: EventEffects,
  ) => {
    const [row] = await tx
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.sessionId, session.id))
      .for("update");
    if (!row) {
      // Ours (its metadata names the user) but not recorded yet: the checkout call that made it
      // has not committed. Fail, so the provider delivers the event again later.
      if (session.metadata.userId)
        throw new Error(`Checkout session ${session.id} not recorded yet`);
      log.warn({ sessionId: session.id }, "Checkout session unknown to this app: ignored");
      return;
    }
    if (session.status === "expired") {
      if (!row.fulfilledAt && row.status === "open") {
        await tx
          .update(checkoutSessions)
          .set({ status: eventType === "checkout.session.expired" ? "expired" : "canceled" })
          .where(eq(checkoutSessions.id, row.id));
      }
      return;
    }
    const paid =
      session.paymentStatus === "paid" || session.paymentStatus === "no_payment_required";
    if (!paid) {
      if (eventType === "checkout.session.async_payment_failed" && !row.fulfilledAt) {
        await tx
          .update(checkoutSessions)
          .set({ paymentStatus: "failed" })
          .where(eq(checkoutSessions.id, row.id));
        await recordFailedCheckout(tx, row, {
          sourceKey: `checkout:${row.sessionId}`,
          reason: "The payment failed",
          paymentId: session.paymentIntentId,
        });
      }
      return;
    }
    if (row.fulfilledAt) return;
    const paidAmount = { amountMinor: session.amountTotal, currency: session.currency };
    const mismatch =
      row.mode === "payment"
        ? paymentMismatch({ amountMinor: row.amountMinor, currency: row.currency }, paidAmount)
        : null;
    if (mismatch) {
      // Charged, but not what was sold: nothing granted; the admin sees the row and its reason.
      await recordFailedCheckout(tx, row, {
        sourceKey: `checkout:${row.sessionId}`,
        reason: mismatch,
        charged: paidAmount,
        paymentId: session.paymentIntentId,
      });
      await tx
        .update(checkoutSessions)
        .set({ status: "complete", paymentStatus: "failed" })
        .where(eq(checkoutSessions.id, row.id));
      log.warn({ sessionId: row.sessionId, mismatch }, "Checkout payment does not match the sale");
      return;
    }
    if (row.mode === "payment") {
      await applyCreditMovement(tx, {
        userId: row.userId,
        kind: "purchase",
        amount: row.credits ?? 0,
        sourceKey: `checkout:${row.sessionId}`,
        metadata: { packageId: row.packageId, sessionId: row.sessionId },
      });
      await probe("credits-granted");
      await tx
        .insert(payments)
        .values(checkoutPayment(row, session))
        .onConflictDoUpdate({
          target: payments.sourceKey,
          set: {
            status: "success",
            amountMinor: session.amountTotal,
            stripePaymentId: session.paymentIntentId,
            metadata: {},
          },
        });
      await probe("payment-recorded");
    } else {
      const mirrored = await syncSubscription(
        tx,
        provider,
        subscription,
        { userId: row.userId, planId: row.planId },
        effects,
      );
      const verified =
        mirrored && invoice ? await recordPaidInvoice(tx, invoice, mirrored, row) : true;
      if (!verified) {
        // Paid, but not the plan's price: the return page says failed; the sweep leaves it.
        await tx
          .update(checkoutSessions)
          .set({ status: "complete", paymentStatus: "failed" })
          .where(eq(checkoutSessions.id, row.id));
        return;
      }
    }
    await tx
      .update(checkoutSessions)
      .set({ status: "complete", paymentStatus: "paid", fulfilledAt: new Date() })
      .where(eq(checkoutSessions.id, row.id));
  };

  /**
   * Runs `apply` with the event id recorded in the same transaction; a known id: nothing. The
   * user's row is locked first: every event about one user is applied one at a time, in one
   * lock order (two parallel plan payments cannot both see "no subscription", nor deadlock).
   */
  const once = async (
    event: PaymentEvent,
    apply: (tx: Database, effects: EventEffects) => Promise<void>,
    userId?: string | null,
  ): Promise<HandledEvent> => {
    const effects: EventEffects = { duplicateOf: new Set() };
    const handled = await db.transaction(async (tx) => {
      if (userId && UUID.test(userId)) {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
      }
      const recorded = await tx
        .insert(processedWebhookEvents)
        .values({ eventId: event.id, type: event.type })
        .onConflictDoNothing({ target: processedWebhookEvents.eventId })
        .returning({ eventId: processedWebhookEvents.eventId });
      if (recorded.length === 0) return { duplicate: true };
      await probe("event-recorded");
      await apply(tx, effects);
      return { duplicate: false };
    });
    for (const duplicateOf of effects.duplicateOf) {
      // The claim is committed: a failure here is settled later by the refunds sweep.
      await options.onDuplicateSubscription?.(duplicateOf).catch((error: unknown) => {
        log.error({ err: error, userId: duplicateOf }, "Refund of a second subscription failed");
      });
    }
    return handled;
  };

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
        if (!session) return once(event, async () => {});
        const subscription =
          session.mode === "subscription" && session.subscriptionId
            ? await provider.retrieveSubscription(session.subscriptionId)
            : null;
        const invoice = subscription?.latestInvoiceId
          ? await provider.retrieveInvoice(subscription.latestInvoiceId)
          : null;
        return once(
          event,
          (tx, effects) =>
            applyCheckout(tx, provider, event.type, session, subscription, invoice, effects),
          session.metadata.userId ?? session.clientReferenceId,
        );
      }
      if (SUBSCRIPTION_EVENTS.has(event.type)) {
        const subscription = await provider.retrieveSubscription(objectId);
        return once(
          event,
          async (tx, effects) => {
            await syncSubscription(tx, provider, subscription, undefined, effects);
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
          async (tx, effects) => {
            if (!invoice) return;
            const row = await syncSubscription(tx, provider, subscription, undefined, effects);
            if (!row) return;
            if (event.type === "invoice.payment_failed") {
              await recordFailedInvoice(tx, invoice, row);
            } else {
              await recordPaidInvoice(tx, invoice, row, null);
            }
          },
          subscription?.metadata.userId,
        );
      }
      if (event.type === "charge.refunded") {
        const charge = await provider.retrieveCharge(objectId);
        return once(event, async (tx) => {
          if (charge) await applyChargeRefunds(tx, charge);
        });
      }
      if (event.type === "charge.dispute.created") {
        const dispute = await provider.retrieveDispute(objectId);
        return once(event, async (tx) => {
          if (dispute) await applyDispute(tx, dispute);
        });
      }
      return once(event, async () => {});
    },

    /**
     * A subscription invoice recorded now (a plan change's proration), as its webhook will:
     * the same source key, so whichever comes second changes nothing.
     */
    async recordInvoice(
      invoice: InvoiceInfo,
      subscription: SubscriptionInfo,
      provider: PaymentsProvider,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await syncSubscription(tx, provider, subscription);
        if (row) await recordPaidInvoice(tx, invoice, row, null);
      });
    },

    /** The mirror of one subscription brought to the provider's state now (plan change, cancel). */
    async refreshSubscription(
      subscription: SubscriptionInfo,
      provider: PaymentsProvider,
    ): Promise<UserSubscriptionRow | null> {
      return db.transaction((tx) => syncSubscription(tx, provider, subscription));
    },
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
