import { bindFirst } from "../../../lib/bind-first.ts";
import type { FulfilmentProbe } from "./event-context.ts";
import type { FulfilmentDeps, FulfilmentOptions } from "./fulfilment-transaction.ts";
import { handle } from "./handle-event.ts";
import { refreshSubscription, settlePlanChange } from "./subscription-settlement.ts";

export type { FulfilmentProbe } from "./event-context.ts";
export type { FulfilmentOptions, HandledEvent } from "./fulfilment-transaction.ts";
export {
  CHECKOUT_EVENTS,
  INVOICE_EVENTS,
  PAYMENT_FAILED_EVENT,
  SUBSCRIPTION_EVENTS,
  WEBHOOK_EVENTS,
} from "./webhook-events.ts";

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
  const state: { probe: FulfilmentProbe | null } = { probe: null };
  const deps: FulfilmentDeps = { ...options, state };
  return {
    state,
    ...bindFirst(deps, { handle, settlePlanChange, refreshSubscription }),
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
