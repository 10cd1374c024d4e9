import { type EmulatorDeps, mustGet, save } from "./deps.ts";
import { idempotent } from "./idempotency.ts";
import { billSubscription } from "./invoices.ts";
import type { Json } from "./json.ts";
import { periodFromAnchor, proration } from "./periods.ts";

/** The subscription's one item (this app sells one price per subscription). */
export const subscriptionItem = (subscription: Json) =>
  (subscription.items as { data: Json[] }).data[0] as Json;

/**
 * The subscription a paid checkout session starts, with its first invoice. A free trial: the
 * first period is the trial, billed $0; the first charge is the renewal at trial_end
 * (billing_reason subscription_cycle), as at Stripe. A coupon of duration once lowers the first
 * invoice only (the session's amount_total).
 */
export async function startSubscription(
  deps: EmulatorDeps,
  session: Json,
): Promise<{ subscription: Json; invoice: Json }> {
  const price = await mustGet(deps, String(session.price_id), "price");
  const recurring = price.recurring as Json;
  const start = deps.clock.now();
  const trialDays = Number(session.trial_period_days ?? 0);
  const end =
    trialDays > 0
      ? start + trialDays * 86_400
      : periodFromAnchor(start, String(recurring.interval), Number(recurring.interval_count), 1);
  const subscription: Json = {
    id: deps.newId("sub"),
    object: "subscription",
    status: trialDays > 0 ? "trialing" : "active",
    trial_start: trialDays > 0 ? start : null,
    trial_end: trialDays > 0 ? end : null,
    // Periods count from here, so a month-end day is kept (Jan 31, Feb 28, Mar 31).
    billing_cycle_anchor: trialDays > 0 ? end : start,
    customer: session.customer,
    currency: price.currency,
    cancel_at_period_end: false,
    canceled_at: null,
    created: start,
    metadata: session.subscription_metadata ?? {},
    latest_invoice: null,
    items: {
      object: "list",
      data: [
        {
          id: deps.newId("si"),
          object: "subscription_item",
          price: { ...price },
          current_period_start: start,
          current_period_end: end,
        },
      ],
      has_more: false,
    },
  };
  const invoice = await billSubscription(deps, {
    subscription,
    amount: Number(session.amount_total),
    reason: "subscription_create",
    paid: true,
    periodStart: start,
    periodEnd: end,
  });
  await save(deps, subscription);
  return { subscription, invoice };
}

/** What changing the subscription to `price` now would bill (signed), prorated. */
export function prorationNow(deps: EmulatorDeps, subscription: Json, newAmount: number) {
  const item = subscriptionItem(subscription);
  return proration({
    oldAmount: Number((item.price as Json).unit_amount),
    newAmount,
    periodStart: Number(item.current_period_start),
    periodEnd: Number(item.current_period_end),
    now: deps.clock.now(),
  });
}

/** POST /v1/invoices/create_preview: the proration a price change would invoice. */
export async function previewPriceChange(deps: EmulatorDeps, body: Json): Promise<Json> {
  const subscription = await mustGet(deps, String(body.subscription), "subscription");
  const details = body.subscription_details as Json;
  const priceId = ((details?.items as Json[]) ?? [])[0]?.price;
  const price = await mustGet(deps, String(priceId), "price");
  const total = prorationNow(deps, subscription, Number(price.unit_amount));
  return {
    object: "invoice",
    id: null,
    total,
    amount_due: Math.max(0, total),
    currency: price.currency,
    billing_reason: "subscription_update",
    created: deps.clock.now(),
    lines: { object: "list", data: [], has_more: false },
  };
}

export const retrieveSubscription = (deps: EmulatorDeps, subscriptionId: string) =>
  mustGet(deps, subscriptionId, "subscription");

/**
 * POST /v1/subscriptions/:id: cancel at period end (or not), metadata, and a price change
 * (re-pricing: the item's price is replaced; with proration_behavior always_invoice the
 * proration is invoiced at once). A retry with the same Idempotency-Key answers the first
 * result and changes nothing again.
 */
export async function updateSubscription(
  deps: EmulatorDeps,
  subscriptionId: string,
  body: Json,
  idempotencyKey: string | null,
): Promise<Json> {
  const subscription = await mustGet(deps, subscriptionId, "subscription");
  const recordId = idempotencyKey ? `idem_subscription_${subscriptionId}_${idempotencyKey}` : null;
  return idempotent(deps, recordId, async () => {
    if (body.cancel_at_period_end !== undefined) {
      subscription.cancel_at_period_end = body.cancel_at_period_end === "true";
      subscription.canceled_at = subscription.cancel_at_period_end ? deps.clock.now() : null;
    }
    if (body.metadata) {
      subscription.metadata = { ...(subscription.metadata as Json), ...(body.metadata as Json) };
    }
    const newPriceId = (body.items as Json[] | undefined)?.[0]?.price;
    if (newPriceId) {
      const price = await mustGet(deps, String(newPriceId), "price");
      const due = prorationNow(deps, subscription, Number(price.unit_amount));
      const item = subscriptionItem(subscription);
      item.price = { ...price };
      if (body.proration_behavior === "always_invoice" && due !== 0) {
        await billSubscription(deps, {
          subscription,
          amount: due,
          reason: "subscription_update",
          paid: true,
          periodStart: deps.clock.now(),
          periodEnd: Number(item.current_period_end),
        });
      }
    }
    await save(deps, subscription);
    return subscription;
  });
}

/** DELETE /v1/subscriptions/:id: canceled now (a second cancel changes nothing). */
export async function cancelSubscription(deps: EmulatorDeps, subscriptionId: string) {
  const subscription = await mustGet(deps, subscriptionId, "subscription");
  if (subscription.status !== "canceled") {
    Object.assign(subscription, {
      status: "canceled",
      canceled_at: deps.clock.now(),
      ended_at: deps.clock.now(),
    });
    await save(deps, subscription);
  }
  return subscription;
}

/** Ends a subscription (the period ran out after a cancellation). */
export async function endSubscription(deps: EmulatorDeps, subscriptionId: string) {
  const subscription = await mustGet(deps, subscriptionId, "subscription");
  Object.assign(subscription, { status: "canceled", ended_at: deps.clock.now() });
  await save(deps, subscription);
  return subscription;
}
