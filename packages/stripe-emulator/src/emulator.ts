import { chargeRenewal, updateCard } from "./cards.ts";
import { chargeView, mustPaidChargeOf } from "./charges.ts";
import * as checkout from "./checkout-payments.ts";
import { createTestClock, type EmulatorClock } from "./clock.ts";
import {
  DEFAULT_RENEWAL_RETRIES,
  type EmulatorDeps,
  type RenewalRetries,
  type Rounding,
} from "./deps.ts";
import { openDispute } from "./disputes.ts";
import { makeEvent } from "./events.ts";
import { handleStripeRequest, type StripeHttpRequest, type StripeHttpResponse } from "./http.ts";
import { idMaker, type Json } from "./json.ts";
import { createMemoryStore } from "./memory-store.ts";
import { refundInDashboard } from "./refunds.ts";
import { failRenewal, renew } from "./renewals.ts";
import type { EmulatorStore } from "./store.ts";
import { endSubscription } from "./subscriptions.ts";

/**
 * Stripe in-process: its API (`handle`, what the SDK calls) and the test controls, the things
 * that happen at Stripe without an API call (a customer pays, a renewal is charged or fails, a
 * refund is made in the dashboard, a bank disputes). They answer the objects a webhook would
 * carry; the caller signs the events.
 */
export interface StripeEmulator {
  store: EmulatorStore;
  clock: EmulatorClock;
  /**
   * How a percentage off rounds a half minor unit: "up" (the default) or "even". Stripe's rule is
   * its own; a test sets the other one to show that the app sells what Stripe charges.
   */
  rounding: Rounding;
  handle(request: StripeHttpRequest): Promise<StripeHttpResponse>;
  /** A refund made in Stripe's dashboard (no metadata): the charge, refreshed, and the refund. */
  refundInDashboard(
    paymentIntentId: string,
    amount?: number,
  ): Promise<{ charge: Json; refund: Json }>;
  /** A dispute opened by the card holder's bank on a payment. */
  openDispute(paymentIntentId: string, amount?: number): Promise<Json>;
  /** The charge of a payment intent. */
  chargeOf(paymentIntentId: string): Promise<Json>;
  /** Pays an open checkout session (and, in subscription mode, starts the subscription). */
  completeCheckout(
    sessionId: string,
  ): Promise<{ session: Json; subscription?: Json; invoice?: Json }>;
  /**
   * A payment attempt at an open checkout session (payment mode) that fails, as Checkout makes
   * one: the session's payment intent (made at its first attempt, confirmed again by each retry)
   * goes back to requires_payment_method with the attempt's `last_payment_error` (a declined card
   * by default, `error` overrides its fields) and a failed charge; the session stays open.
   * Answers a copy of the payment intent as the payment_intent.payment_failed event carries it:
   * the live one forgets the error at the next attempt.
   */
  failCheckoutAttempt(sessionId: string, error?: Json): Promise<Json>;
  /**
   * A delayed payment (a bank debit) submitted at checkout that fails days later: the session
   * complete and unpaid, its payment intent requires_payment_method with an error that names no
   * charge. Answers both objects, as checkout.session.async_payment_failed and
   * payment_intent.payment_failed carry them.
   */
  failDelayedPayment(sessionId: string): Promise<{ session: Json; paymentIntent: Json }>;
  /** Expires an open checkout session. */
  expireCheckout(sessionId: string): Promise<Json>;
  /**
   * Bills the next period: a paid invoice (subscription_cycle) and the period moved on (a
   * trialing subscription's first charge at its trial_end: it turns active).
   */
  renew(subscriptionId: string): Promise<{ subscription: Json; invoice: Json }>;
  /**
   * A renewal whose payment fails: an open invoice and the subscription past_due; failing
   * again (Stripe's retries) leaves it unpaid. A later renew() pays the open invoice.
   */
  failRenewal(subscriptionId: string): Promise<{ subscription: Json; invoice: Json }>;
  /** Ends a subscription (the period ran out after a cancellation). */
  endSubscription(subscriptionId: string): Promise<Json>;
  /**
   * The subscription's customer saves another card for renewals (Stripe's billing portal): it
   * becomes the default card, and decides whether chargeRenewal pays (TEST_CARD_THAT_PAYS) or
   * is declined (any other number). Answers the payment method.
   */
  updateCard(subscriptionId: string, cardNumber: string): Promise<Json>;
  /**
   * A renewal charged on the customer's default card: renew() when it pays, failRenewal() when
   * it is declined (no card saved: the one the subscription was bought with, which paid).
   */
  chargeRenewal(
    subscriptionId: string,
  ): Promise<{ subscription: Json; invoice: Json; paid: boolean }>;
  /** An event as Stripe would send it. */
  event(type: string, object: Json): Json;
}

export interface StripeEmulatorOptions {
  /** The key the API accepts (a wrong one is a 401). */
  secretKey: string;
  /** The state; a memory store when absent. */
  store?: EmulatorStore;
  /** The wall clock in milliseconds (Date.now when absent); renewals move a test clock on it. */
  now?: () => number;
  /** Tags every id (`pi_{idTag}_*`), so ids say where they were made; Stripe's own by default. */
  idTag?: string;
  /** The page where a buyer pays a session (Stripe's hosted page by default). */
  checkoutUrl?: (session: Json) => string;
  /** How a declined renewal is retried (DEFAULT_RENEWAL_RETRIES when absent). */
  renewalRetries?: RenewalRetries;
}

const stripeCheckoutUrl = (session: Json) => `https://checkout.stripe.test/c/pay/${session.id}`;

export function createStripeEmulator(options: StripeEmulatorOptions): StripeEmulator {
  const deps: EmulatorDeps = {
    store: options.store ?? createMemoryStore(),
    clock: createTestClock(options.now),
    rounding: { percentHalf: "up" },
    newId: idMaker(options.idTag),
    checkoutUrl: options.checkoutUrl ?? stripeCheckoutUrl,
    renewalRetries: options.renewalRetries ?? DEFAULT_RENEWAL_RETRIES,
  };
  return {
    store: deps.store,
    clock: deps.clock,
    rounding: deps.rounding,
    handle: (request) => handleStripeRequest(deps, options.secretKey, request),
    completeCheckout: (sessionId) => checkout.completeCheckout(deps, sessionId),
    failCheckoutAttempt: (sessionId, error) => checkout.failCheckoutAttempt(deps, sessionId, error),
    failDelayedPayment: (sessionId) => checkout.failDelayedPayment(deps, sessionId),
    expireCheckout: (sessionId) => checkout.expireCheckout(deps, sessionId),
    renew: (subscriptionId) => renew(deps, subscriptionId),
    failRenewal: (subscriptionId) => failRenewal(deps, subscriptionId),
    endSubscription: (subscriptionId) => endSubscription(deps, subscriptionId),
    updateCard: (subscriptionId, cardNumber) => updateCard(deps, subscriptionId, cardNumber),
    chargeRenewal: (subscriptionId) => chargeRenewal(deps, subscriptionId),
    refundInDashboard: (paymentIntentId, amount) =>
      refundInDashboard(deps, paymentIntentId, amount),
    openDispute: (paymentIntentId, amount) => openDispute(deps, paymentIntentId, amount),
    chargeOf: async (paymentIntentId) =>
      chargeView(deps, await mustPaidChargeOf(deps, paymentIntentId)),
    event: (type, object) => makeEvent(deps, type, object),
  };
}
