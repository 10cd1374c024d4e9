import { recurringOf } from "./catalogue.ts";
import { type EmulatorDeps, mustGet, save } from "./deps.ts";
import { invalidRequest, notFound } from "./errors.ts";
import type { Json } from "./json.ts";
import { percentOff } from "./periods.ts";
import { promotionRefusal } from "./promotions.ts";
import { StripeObjects } from "./store.ts";

/** The session's one price: a catalogue price, or one made from price_data. */
async function sessionPrice(deps: EmulatorDeps, item: Json): Promise<Json> {
  if (item.price) {
    const price = await deps.store.get(String(item.price));
    if (price?.object !== "price") throw notFound("price", String(item.price));
    return price;
  }
  const data = item.price_data as Json;
  const price: Json = {
    id: deps.newId("price"),
    object: "price",
    unit_amount: Number(data.unit_amount),
    currency: data.currency,
    active: true,
    recurring: recurringOf(data.recurring as Json | undefined),
  };
  await save(deps, price);
  return price;
}

/** The promotion code the session applies (Stripe's refusal when it cannot), or null. */
async function sessionDiscount(deps: EmulatorDeps, body: Json, price: Json) {
  let discount: { promotionCode: Json; coupon: Json } | null = null;
  for (const each of (body.discounts as Json[] | undefined) ?? []) {
    const promotionCode = await deps.store.get(String(each.promotion_code));
    if (promotionCode?.object !== "promotion_code") {
      throw notFound("promotion_code", String(each.promotion_code));
    }
    const coupon = await mustGet(deps, String((promotionCode.promotion as Json).coupon), "coupon");
    const refused = promotionRefusal(promotionCode, coupon, price.currency, deps.clock.now());
    if (refused) throw invalidRequest(refused, "promotion_code_invalid");
    discount = { promotionCode, coupon };
  }
  return discount;
}

/** POST /v1/checkout/sessions: an open session of one price, its total as Stripe computes it. */
export async function createCheckoutSession(deps: EmulatorDeps, body: Json): Promise<Json> {
  const price = await sessionPrice(deps, ((body.line_items as Json[]) ?? [])[0] ?? {});
  if (body.mode === "subscription" && !price.recurring) {
    throw invalidRequest("A subscription needs a recurring price");
  }
  const discount = await sessionDiscount(deps, body, price);
  // subscription_data.trial_period_days (decision 0083): nothing due at the checkout.
  const trialDays = Number((body.subscription_data as Json | undefined)?.trial_period_days ?? 0);
  const subtotal = Number(price.unit_amount);
  // A percentage rounds to the nearest minor unit, a half as `rounding` says.
  const amountDiscount = !discount
    ? 0
    : discount.coupon.percent_off !== null
      ? Math.min(
          subtotal,
          percentOff(
            subtotal,
            Math.round(Number(discount.coupon.percent_off) * 100),
            deps.rounding.percentHalf,
          ),
        )
      : Math.min(subtotal, Number(discount.coupon.amount_off));
  const now = deps.clock.now();
  const id = deps.newId("cs", "test");
  const session: Json = {
    id,
    object: "checkout.session",
    mode: body.mode,
    status: "open",
    payment_status: "unpaid",
    client_reference_id: body.client_reference_id ?? null,
    customer: null,
    customer_email: body.customer_email ?? null,
    metadata: body.metadata ?? {},
    subscription_metadata: (body.subscription_data as Json | undefined)?.metadata ?? {},
    payment_intent_metadata: (body.payment_intent_data as Json | undefined)?.metadata ?? {},
    amount_subtotal: trialDays > 0 ? 0 : subtotal,
    amount_total: trialDays > 0 ? 0 : subtotal - amountDiscount,
    trial_period_days: trialDays > 0 ? trialDays : null,
    total_details: { amount_discount: amountDiscount, amount_shipping: 0, amount_tax: 0 },
    discounts: discount
      ? [{ coupon: discount.coupon.id, promotion_code: discount.promotionCode.id }]
      : [],
    currency: price.currency,
    price_id: price.id,
    subscription: null,
    payment_intent: null,
    success_url: body.success_url,
    cancel_url: body.cancel_url,
    expires_at: body.expires_at ? Number(body.expires_at) : now + 86_400,
    created: now,
  };
  session.url = deps.checkoutUrl(session);
  await save(deps, session);
  return session;
}

/** GET /v1/checkout/sessions, filtered by payment_intent and customer. */
export async function listCheckoutSessions(deps: EmulatorDeps, query: Json) {
  const all = await deps.store.list(StripeObjects.session);
  return all.filter(
    (each) =>
      (query.payment_intent === undefined || each.payment_intent === query.payment_intent) &&
      (query.customer === undefined || each.customer === query.customer),
  );
}

export const retrieveCheckoutSession = (deps: EmulatorDeps, sessionId: string) =>
  mustGet(deps, sessionId, "checkout.session");
