import { chargeView, mustPaidChargeOf } from "./charges.ts";
import * as checkout from "./checkout-payments.ts";
import { createTestClock, type EmulatorClock } from "./clock.ts";
import type { EmulatorDeps, Rounding } from "./deps.ts";
import { openDispute } from "./disputes.ts";
import { makeEvent } from "./events.ts";
import { handleStripeRequest, type StripeHttpRequest, type StripeHttpResponse } from "./http.ts";
import type { Json } from "./json.ts";
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
  /** How a percentage off rounds a half minor unit; a test sets "even" to differ from the app. */
  rounding: Rounding;
  handle(request: StripeHttpRequest): Promise<StripeHttpResponse>;
  completeCheckout(
    sessionId: string,
  ): Promise<{ session: Json; subscription?: Json; invoice?: Json }>;
  failCheckoutAttempt(sessionId: string, error?: Json): Promise<Json>;
  failDelayedPayment(sessionId: string): Promise<{ session: Json; paymentIntent: Json }>;
  expireCheckout(sessionId: string): Promise<Json>;
  renew(subscriptionId: string): Promise<{ subscription: Json; invoice: Json }>;
  failRenewal(subscriptionId: string): Promise<{ subscription: Json; invoice: Json }>;
  endSubscription(subscriptionId: string): Promise<Json>;
  refundInDashboard(
    paymentIntentId: string,
    amount?: number,
  ): Promise<{ charge: Json; refund: Json }>;
  openDispute(paymentIntentId: string, amount?: number): Promise<Json>;
  /** The charge of a payment intent, refunds expanded. */
  chargeOf(paymentIntentId: string): Promise<Json>;
  event(type: string, object: Json): Json;
}

export interface StripeEmulatorOptions {
  /** The key the API accepts (a wrong one is a 401). */
  secretKey: string;
  /** The state; a memory store when absent. */
  store?: EmulatorStore;
  /** The wall clock in milliseconds (Date.now when absent); renewals move a test clock on it. */
  now?: () => number;
}

export function createStripeEmulator(options: StripeEmulatorOptions): StripeEmulator {
  const deps: EmulatorDeps = {
    store: options.store ?? createMemoryStore(),
    clock: createTestClock(options.now),
    rounding: { percentHalf: "up" },
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
    refundInDashboard: (paymentIntentId, amount) =>
      refundInDashboard(deps, paymentIntentId, amount),
    openDispute: (paymentIntentId, amount) => openDispute(deps, paymentIntentId, amount),
    chargeOf: async (paymentIntentId) =>
      chargeView(deps, await mustPaidChargeOf(deps, paymentIntentId)),
    event: (type, object) => makeEvent(deps, type, object),
  };
}
