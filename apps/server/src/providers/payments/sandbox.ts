import { createHash } from "node:crypto";
import { ProviderUnavailableError } from "../errors.ts";
import { createSandboxInvoices, sandboxId } from "./sandbox-invoices.ts";
import { createSandboxRenewals, type RenewalOutcome } from "./sandbox-renewals.ts";

export type { RenewalOutcome };

import type {
  CheckoutItem,
  CheckoutSessionInfo,
  CreateCheckoutInput,
  InvoiceInfo,
  PaymentEvent,
  PaymentIntentInfo,
  PaymentIntentStatus,
  PaymentsProvider,
  ProviderSubscriptionStatus,
  Recurring,
  RefundInfo,
  SandboxStore,
  SubscriptionInfo,
} from "./types.ts";

/** The sandbox's test cards and messages (docs/decisions/0016). */
export const SANDBOX_CARD_SUCCESS = "4242424242424242";
export const SANDBOX_CARD_DECLINED = "4000000000000002";

/** The session was paid, canceled or expired already. */
export class SessionClosedError extends Error {
  constructor() {
    super("This checkout session is no longer open");
    this.name = "SessionClosedError";
  }
}

/** A card the sandbox refuses, with Stripe's words ("Your card was declined."). */
export class CardError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "CardError";
  }
}

export interface SandboxCard {
  cardNumber: string;
  expiry: string;
  cvc: string;
}

export interface SandboxOptions {
  store: SandboxStore;
  /** Where the sandbox's events go: the same handler as Stripe's webhook. */
  deliver: (event: PaymentEvent) => Promise<void>;
  now?: () => Date;
}

/** The sandbox's own operations, beyond the provider interface (its hosted page calls them). */
export interface SandboxPayments extends PaymentsProvider {
  readonly mode: "sandbox";
  /** Charges the card for an open session, then delivers its events. */
  pay(sessionId: string, card: SandboxCard): Promise<void>;
  /** The buyer left the page: the session is canceled (Stripe keeps it open; it expires). */
  cancel(sessionId: string): Promise<void>;
  /**
   * Renews the subscription when its period has ended by the sandbox's clock (the renewal
   * sweep calls it): charges the saved card, or, declined, goes past_due then unpaid; ends one
   * set to cancel. `known` is the app's mirror: when the sandbox is elsewhere already, its
   * latest events are delivered again (a crash between the two).
   */
  /**
   * The customer saves another card for renewals (Stripe's billing portal); any well-formed
   * number is kept, the decline card too: it fails at the next renewal.
   */
  updateCard(subscriptionId: string, cardNumber: string): Promise<void>;
  renewDue(
    subscriptionId: string,
    known: { periodEnd: Date; status: string },
  ): Promise<RenewalOutcome>;
}

/** The invoice a plan change makes, written into the subscription with the change. */
interface PendingChangeInvoice {
  changeKey: string;
  invoiceId: string;
  totalMinor: number;
  periodStart: string;
  periodEnd: string;
}

const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** As at Stripe here: an abandoned plan checkout stops blocking the next one (decision 0051). */
const PLAN_CHECKOUT_LIFETIME_MS = 35 * 60 * 1000;

export { sandboxId };

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const fromSeconds = (value: unknown) => new Date(Number(value) * 1000);

/** The end of a period of `recurring` that starts at `start` (UTC, month ends clamped). */
export function periodEnd(start: Date, recurring: Recurring): Date {
  const end = new Date(start.getTime());
  const n = recurring.intervalCount;
  switch (recurring.interval) {
    case "day":
      end.setUTCDate(end.getUTCDate() + n);
      break;
    case "week":
      end.setUTCDate(end.getUTCDate() + 7 * n);
      break;
    case "month":
    case "year": {
      const months = recurring.interval === "month" ? n : 12 * n;
      const day = end.getUTCDate();
      end.setUTCDate(1);
      end.setUTCMonth(end.getUTCMonth() + months);
      const last = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
      end.setUTCDate(Math.min(day, last));
      break;
    }
  }
  return end;
}

/**
 * Stripe's proration for an immediate price change invoiced at once: the new price for the
 * unused part of the period less the unused part of the old price. Signed: a negative result
 * (a downgrade) is credited to the customer's balance for the next invoice.
 */
export function prorationDue(input: {
  oldAmountMinor: number;
  newAmountMinor: number;
  periodStart: Date;
  periodEnd: Date;
  now: Date;
}): number {
  const total = input.periodEnd.getTime() - input.periodStart.getTime();
  if (total <= 0) return 0;
  const left = Math.min(Math.max(input.periodEnd.getTime() - input.now.getTime(), 0), total);
  const fraction = left / total;
  return Math.round(input.newAmountMinor * fraction) - Math.round(input.oldAmountMinor * fraction);
}

/** The card form's checks, in Stripe's words. */
export function checkCard(card: SandboxCard, now: Date): void {
  const number = card.cardNumber.replace(/[\s-]/g, "");
  if (!/^\d{13,19}$/.test(number)) {
    throw new CardError("Your card number is incomplete.", "incomplete_number");
  }
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry);
  const month = Number(expiry?.[1]);
  if (!expiry || month < 1 || month > 12) {
    throw new CardError("Your card's expiration date is incomplete.", "incomplete_expiry");
  }
  const year = Number(expiry[2]) + (expiry[2]?.length === 2 ? 2000 : 0);
  if (
    year < now.getUTCFullYear() ||
    (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)
  ) {
    throw new CardError("Your card has expired.", "expired_card");
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) {
    throw new CardError("Your card's security code is incomplete.", "incomplete_cvc");
  }
  if (number === SANDBOX_CARD_DECLINED) {
    throw new CardError("Your card was declined.", "card_declined");
  }
  if (number !== SANDBOX_CARD_SUCCESS) {
    throw new CardError("Your card was declined.", "card_declined");
  }
}

type Json = Record<string, unknown>;
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

function toSession(data: Json): CheckoutSessionInfo {
  return {
    id: String(data.id),
    mode: data.mode === "subscription" ? "subscription" : "payment",
    status: data.status as CheckoutSessionInfo["status"],
    paymentStatus: data.payment_status as CheckoutSessionInfo["paymentStatus"],
    clientReferenceId: str(data.client_reference_id),
    metadata: (data.metadata as Record<string, string>) ?? {},
    subscriptionId: str(data.subscription),
    paymentIntentId: str(data.payment_intent),
    customerId: str(data.customer),
    amountTotal: Number(data.amount_total),
    currency: String(data.currency),
  };
}

function toSubscription(data: Json): SubscriptionInfo {
  return {
    id: String(data.id),
    status: data.status as ProviderSubscriptionStatus,
    customerId: str(data.customer),
    itemId: str(data.item_id),
    priceId: str(data.price_id),
    amountMinor: Number(data.amount),
    currency: String(data.currency),
    recurring: {
      interval: data.interval as Recurring["interval"],
      intervalCount: Number(data.interval_count),
    },
    currentPeriodStart: fromSeconds(data.current_period_start),
    currentPeriodEnd: fromSeconds(data.current_period_end),
    cancelAtPeriodEnd: data.cancel_at_period_end === true,
    canceledAt: data.canceled_at == null ? null : fromSeconds(data.canceled_at),
    trialEnd: data.trial_end == null ? null : fromSeconds(data.trial_end),
    metadata: (data.metadata as Record<string, string>) ?? {},
    latestInvoiceId: str(data.latest_invoice),
    created: fromSeconds(data.created),
  };
}

function toInvoice(data: Json): InvoiceInfo {
  return {
    id: String(data.id),
    number: str(data.number),
    status: data.status as InvoiceInfo["status"],
    subscriptionId: str(data.subscription),
    amountPaid: Number(data.amount_paid),
    amountDue: Number(data.amount_due),
    totalMinor: Number(data.total ?? data.amount_due),
    creditAppliedMinor: Math.max(
      0,
      Number(data.ending_balance ?? 0) - Number(data.starting_balance ?? 0),
    ),
    subscriptionMetadata: (data.subscription_metadata as Record<string, string>) ?? {},
    currency: String(data.currency),
    billingReason: str(data.billing_reason),
    paymentId: str(data.payment_intent),
    periodStart: data.period_start == null ? null : fromSeconds(data.period_start),
    periodEnd: data.period_end == null ? null : fromSeconds(data.period_end),
    created: fromSeconds(data.created),
    attemptCount: Number(data.attempt_count ?? 1),
  };
}

function toPaymentIntent(data: Json): PaymentIntentInfo {
  return {
    id: String(data.id),
    status: (str(data.status) ?? "succeeded") as PaymentIntentStatus,
    amountMinor: Number(data.amount),
    currency: String(data.currency),
    metadata: (data.metadata as Record<string, string>) ?? {},
    lastPaymentError: null,
  };
}

function toRefund(data: Json): RefundInfo {
  return {
    id: String(data.id),
    paymentId: str(data.payment_intent),
    amountMinor: Number(data.amount),
    currency: String(data.currency),
    status: data.status as RefundInfo["status"],
    metadata: (data.metadata as Record<string, string>) ?? {},
  };
}

/** No Stripe key and no sandbox state wired (scripts): only the key test answers. */
export function createSandboxPayments(): PaymentsProvider;
export function createSandboxPayments(options: SandboxOptions): SandboxPayments;
export function createSandboxPayments(options?: SandboxOptions): PaymentsProvider {
  const unavailable = async (): Promise<never> => {
    throw new ProviderUnavailableError("The payments sandbox is not wired to a store");
  };
  if (!options) {
    return {
      mode: "sandbox",
      catalogue: null,
      retrieveBalance: async () => [],
      createCheckoutSession: unavailable,
      retrieveCheckoutSession: unavailable,
      retrieveSubscription: unavailable,
      retrieveInvoice: unavailable,
      retrievePaymentIntent: unavailable,
      checkoutSessionOfPaymentIntent: unavailable,
      previewPriceChange: unavailable,
      changeSubscriptionPrice: unavailable,
      changeInvoice: unavailable,
      cancelAtPeriodEnd: unavailable,
      resumeSubscription: unavailable,
      cancelNow: unavailable,
      refund: unavailable,
      retrieveCharge: unavailable,
      retrieveDispute: unavailable,
    };
  }
  const { store, deliver } = options;
  // A subscription bought before cards were saved was paid with the one card that pays.
  const cardPays = (card: unknown) => card == null || card === SANDBOX_CARD_SUCCESS;
  const now = options.now ?? (() => new Date());
  const invoices = createSandboxInvoices({ store, now });

  const event = (type: string, object: Json): PaymentEvent => ({
    id: sandboxId("evt"),
    type,
    created: seconds(now()),
    data: { object: object as PaymentEvent["data"]["object"] },
  });

  const mustGet = async (id: string, object: string): Promise<Json> => {
    const data = await store.get(id);
    if (!data || data.object !== object) {
      throw new ProviderUnavailableError(`No such sandbox ${object}: ${id}`);
    }
    return data;
  };

  /**
   * Writes a subscription by compare-and-set on its version: a renewal and a plan change of
   * one subscription never both apply to the same state (the loser is told to retry).
   */
  const saveSubscription = async (data: Json): Promise<boolean> => {
    const version = String(data.version ?? "0");
    const next = { ...data, version: String(Number(version) + 1) };
    if (!(await store.transition(String(data.id), version, next, "version"))) return false;
    Object.assign(data, next);
    return true;
  };

  const renewals = createSandboxRenewals({
    store,
    invoices,
    deliver,
    event,
    now,
    saveSubscription,
    periodEnd,
    cardPays,
  });

  const sandbox: SandboxPayments = {
    mode: "sandbox",
    catalogue: null,
    retrieveBalance: async () => [],

    async createCheckoutSession(input: CreateCheckoutInput) {
      const sessionId = sandboxId("cs");
      const lifetime =
        input.mode === "subscription" ? PLAN_CHECKOUT_LIFETIME_MS : CHECKOUT_LIFETIME_MS;
      const expiresAt = new Date(now().getTime() + lifetime);
      const fill = (url: string) => url.replaceAll("{CHECKOUT_SESSION_ID}", sessionId);
      // The hosted page is part of this app, at the origin the buyer returns to (their session
      // is there): {origin of successUrl}/checkout/sandbox/{sessionId}.
      const url = `${new URL(input.successUrl).origin}/checkout/sandbox/${sessionId}`;
      const amountTotalMinor = input.trialDays
        ? 0
        : input.item.amountMinor - (input.discount?.amountOffMinor ?? 0);
      await store.put(sessionId, "checkout.session", {
        id: sessionId,
        object: "checkout.session",
        mode: input.mode,
        status: "open",
        payment_status: "unpaid",
        client_reference_id: input.userId,
        customer: `cus_sandbox_${input.userId.replaceAll("-", "")}`,
        customer_email: input.email,
        metadata: input.metadata,
        subscription: null,
        payment_intent: null,
        // A promotion code lowers the first payment only (decision 0083), as at Stripe.
        amount_subtotal: input.item.amountMinor,
        amount_discount: input.discount?.amountOffMinor ?? 0,
        // A free trial's checkout charges nothing (Stripe's amount_total is 0 too).
        amount_total: amountTotalMinor,
        trial_days: input.trialDays ?? 0,
        currency: input.item.currency,
        item: input.item as unknown as Json,
        success_url: fill(input.successUrl),
        cancel_url: fill(input.cancelUrl),
        url,
        expires_at: seconds(expiresAt),
        created: seconds(now()),
      });
      return { sessionId, url, expiresAt, amountTotalMinor };
    },

    async retrieveCheckoutSession(sessionId) {
      const data = await store.get(sessionId);
      return data?.object === "checkout.session" ? toSession(data) : null;
    },
    async retrieveSubscription(subscriptionId) {
      const data = await store.get(subscriptionId);
      return data?.object === "subscription" ? toSubscription(data) : null;
    },
    async retrieveInvoice(invoiceId) {
      const data = await store.get(invoiceId);
      return data?.object === "invoice" ? toInvoice(data) : null;
    },
    // The sandbox makes a payment intent only for a card it charged: a declined card is refused
    // in pay() and recorded there by the checkout service, so no intent here ever failed.
    async retrievePaymentIntent(paymentIntentId) {
      const data = await store.get(paymentIntentId);
      return data?.object === "payment_intent" ? toPaymentIntent(data) : null;
    },
    async checkoutSessionOfPaymentIntent(paymentIntentId) {
      const intent = await store.get(paymentIntentId);
      const sessionId = str(intent?.checkout_session);
      return sessionId ? sandbox.retrieveCheckoutSession(sessionId) : null;
    },

    async pay(sessionId, card) {
      const session = await mustGet(sessionId, "checkout.session");
      if (session.status !== "open") throw new SessionClosedError();
      checkCard(card, now());
      const item = session.item as unknown as CheckoutItem;
      const recurring = session.mode === "subscription" ? item.recurring : null;
      const subscriptionId = recurring ? sandboxId("sub") : null;
      Object.assign(session, {
        status: "complete",
        payment_status: "paid",
        subscription: subscriptionId,
        payment_intent: recurring ? null : sandboxId("pi"),
      });
      // Compare-and-set: of two payments of one session, one wins; the other is told it closed.
      if (!(await store.transition(sessionId, "open", session))) throw new SessionClosedError();
      if (session.payment_intent) {
        await invoices.recordPaymentIntent(
          String(session.payment_intent),
          Number(session.amount_total),
          item.currency,
          { sessionId, metadata: (session.metadata as Record<string, string>) ?? {} },
        );
      }
      const events: PaymentEvent[] = [event("checkout.session.completed", session)];
      if (recurring && subscriptionId) {
        // Renewals charge the card the subscription was bought with.
        await invoices.saveCard(String(session.customer), card.cardNumber.replace(/[\s-]/g, ""));
        const start = now();
        // A free trial's period is the trial; the renewal at its end is the first charge.
        const trialDays = Number(session.trial_days ?? 0);
        const end =
          trialDays > 0
            ? new Date(start.getTime() + trialDays * 24 * 60 * 60 * 1000)
            : periodEnd(start, recurring);
        const subscription: Json = {
          id: subscriptionId,
          object: "subscription",
          status: trialDays > 0 ? "trialing" : "active",
          trial_end: trialDays > 0 ? seconds(end) : null,
          version: "0",
          customer: session.customer,
          item_id: sandboxId("si"),
          price_id: item.priceId,
          amount: item.amountMinor,
          currency: item.currency,
          interval: recurring.interval,
          interval_count: recurring.intervalCount,
          current_period_start: seconds(start),
          current_period_end: seconds(end),
          cancel_at_period_end: false,
          canceled_at: null,
          metadata: session.metadata,
          latest_invoice: null,
          created: seconds(start),
        };
        const invoice = await invoices.make({
          subscription,
          totalMinor: Number(session.amount_total),
          reason: "subscription_create",
          periodStart: start,
          periodEnd: end,
          paid: true,
        });
        subscription.latest_invoice = invoice.id;
        await store.put(subscriptionId, "subscription", subscription);
        events.push(event("customer.subscription.created", subscription));
        events.push(event("invoice.paid", invoice));
      }
      // Stripe's order; the handler copes with any order.
      for (const each of events) await deliver(each);
    },

    async cancel(sessionId) {
      const session = await mustGet(sessionId, "checkout.session");
      if (session.status !== "open") return;
      Object.assign(session, { status: "expired" });
      if (!(await store.transition(sessionId, "open", session))) return;
      await deliver(event("checkout.session.expired", session));
    },

    async previewPriceChange(subscriptionId, item) {
      const subscription = toSubscription(await mustGet(subscriptionId, "subscription"));
      return {
        amountDueMinor: prorationDue({
          oldAmountMinor: subscription.amountMinor,
          newAmountMinor: item.amountMinor,
          periodStart: subscription.currentPeriodStart,
          periodEnd: subscription.currentPeriodEnd,
          now: now(),
        }),
        currency: item.currency,
      };
    },

    async changeSubscriptionPrice(subscriptionId, item, metadata, idempotencyKey) {
      for (;;) {
        const data = await mustGet(subscriptionId, "subscription");
        // The same key again (a retried call): the change it made, not a second one.
        if ((data.metadata as Json | undefined)?.changeKey === idempotencyKey) {
          await finishChangeInvoice(data);
          return toSubscription(data);
        }
        const before = toSubscription(data);
        const total = prorationDue({
          oldAmountMinor: before.amountMinor,
          newAmountMinor: item.amountMinor,
          periodStart: before.currentPeriodStart,
          periodEnd: before.currentPeriodEnd,
          now: now(),
        });
        // As Stripe's error_if_incomplete: a charge the saved card refuses changes nothing.
        const customer = await invoices.customer(String(data.customer));
        if (total > 0 && !cardPays(customer.card)) {
          throw new CardError("Your card was declined.", "card_declined");
        }
        // The change and the invoice it will make are ONE write (Stripe's update is atomic):
        // a crash after it leaves the invoice to be made by whoever reads the change next.
        const invoiceId = total !== 0 ? sandboxId("in") : null;
        const pending: PendingChangeInvoice | null = invoiceId
          ? {
              changeKey: idempotencyKey,
              invoiceId,
              totalMinor: total,
              periodStart: now().toISOString(),
              periodEnd: before.currentPeriodEnd.toISOString(),
            }
          : null;
        Object.assign(data, {
          price_id: item.priceId,
          amount: item.amountMinor,
          currency: item.currency,
          cancel_at_period_end: false,
          canceled_at: null,
          metadata: { ...(data.metadata as Json), ...metadata, changeKey: idempotencyKey },
          change_invoice: pending,
          ...(invoiceId ? { latest_invoice: invoiceId } : {}),
        });
        if (!(await saveSubscription(data))) continue;
        const invoice = await finishChangeInvoice(data);
        await deliver(event("customer.subscription.updated", data));
        if (invoice) await deliver(event("invoice.paid", invoice));
        return toSubscription(data);
      }
    },

    async changeInvoice(subscriptionId, changeKey) {
      const data = await store.get(subscriptionId);
      if (data?.object !== "subscription") return null;
      const pending = data.change_invoice as PendingChangeInvoice | null | undefined;
      if (pending?.changeKey !== changeKey) return null;
      const invoice = await finishChangeInvoice(data);
      return invoice ? toInvoice(invoice) : null;
    },

    cancelAtPeriodEnd: (subscriptionId) => setCancel(subscriptionId, true),
    resumeSubscription: (subscriptionId) => setCancel(subscriptionId, false),

    async updateCard(subscriptionId, cardNumber) {
      const data = await mustGet(subscriptionId, "subscription");
      const number = cardNumber.replace(/[\s-]/g, "");
      if (!/^\d{13,19}$/.test(number)) {
        throw new CardError("Your card number is incomplete.", "incomplete_number");
      }
      await invoices.saveCard(String(data.customer), number);
    },

    renewDue: (subscriptionId, known) => renewals.renewDue(subscriptionId, known),

    async cancelNow(subscriptionId) {
      for (;;) {
        const data = await mustGet(subscriptionId, "subscription");
        if (data.status === "canceled") return toSubscription(data);
        Object.assign(data, { status: "canceled", canceled_at: seconds(now()) });
        if (!(await saveSubscription(data))) continue;
        await deliver(event("customer.subscription.deleted", data));
        return toSubscription(data);
      }
    },

    /**
     * Gives money back from a sandbox payment. The refund's id comes from the idempotency key,
     * so a retried call answers the first refund; more than is left to refund is refused.
     */
    async refund(input) {
      const id = `re_sandbox_${createHash("sha256").update(input.idempotencyKey).digest("hex").slice(0, 24)}`;
      const intent = await store.get(input.paymentId);
      const refund: Json = {
        id,
        object: "refund",
        payment_intent: input.paymentId,
        amount: input.amountMinor,
        currency: intent?.currency ?? "usd",
        status: "succeeded",
        metadata: input.metadata,
        created: seconds(now()),
      };
      // The key's refund is written first: of two calls with one key, one refunds.
      if (!(await store.create(id, "refund", refund))) {
        return toRefund((await store.get(id)) ?? refund);
      }
      if (intent?.object === "payment_intent") {
        const left = Number(intent.amount) - Number(intent.amount_refunded ?? 0);
        if (input.amountMinor > left) {
          await store.put(id, "refund", { ...refund, status: "failed" });
          throw new CardError(
            `Refund amount is greater than the unrefunded amount (${left})`,
            "amount_too_large",
          );
        }
        intent.amount_refunded = Number(intent.amount_refunded ?? 0) + input.amountMinor;
        await store.put(input.paymentId, "payment_intent", intent);
      }
      return toRefund(refund);
    },

    // No dashboard in the sandbox: refunds are made by this app only, disputes never happen.
    retrieveCharge: async () => null,
    retrieveDispute: async () => null,
  };

  /**
   * Makes (once) the invoice a plan change wrote into its subscription; one made already is
   * answered as it is (the customer's balance moves once per invoice).
   */
  async function finishChangeInvoice(data: Json): Promise<Json | null> {
    const pending = data.change_invoice as PendingChangeInvoice | null | undefined;
    if (!pending) return null;
    return invoices.make({
      subscription: data,
      totalMinor: pending.totalMinor,
      reason: "subscription_update",
      periodStart: new Date(pending.periodStart),
      periodEnd: new Date(pending.periodEnd),
      paid: true,
      invoiceId: pending.invoiceId,
    });
  }

  async function setCancel(subscriptionId: string, cancel: boolean): Promise<SubscriptionInfo> {
    for (;;) {
      const data = await mustGet(subscriptionId, "subscription");
      Object.assign(data, {
        cancel_at_period_end: cancel,
        canceled_at: cancel ? seconds(now()) : null,
      });
      if (!(await saveSubscription(data))) continue;
      await deliver(event("customer.subscription.updated", data));
      return toSubscription(data);
    }
  }
  return sandbox;
}
