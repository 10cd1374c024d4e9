// Stripe Checkout: a session opened for a package or a plan, and what a payment's session says.
import type Stripe from "stripe";
import { ProviderError } from "../../errors.ts";
import type { CheckoutItem, CreateCheckoutInput } from "../types.ts";
import { call, nowSeconds, orNull, type StripeDeps } from "./client.ts";
import { toPaymentIntent, toSession } from "./mappers.ts";

const PLAN_CHECKOUT_LIFETIME_S = 35 * 60;

/** A line item: the Price when there is one, else inline price data. */
function lineItem(item: CheckoutItem): Stripe.Checkout.SessionCreateParams.LineItem {
  if (item.priceId) return { price: item.priceId, quantity: 1 };
  return {
    quantity: 1,
    price_data: {
      currency: item.currency,
      unit_amount: item.amountMinor,
      product_data: {
        name: item.name,
        ...(item.description ? { description: item.description } : {}),
      },
      ...(item.recurring
        ? {
            recurring: {
              interval: item.recurring.interval,
              interval_count: item.recurring.intervalCount,
            },
          }
        : {}),
    },
  };
}

export const createCheckoutSession = (deps: StripeDeps, input: CreateCheckoutInput) =>
  call(deps, async (client) => {
    const session = await client.checkout.sessions.create({
      mode: input.mode,
      line_items: [lineItem(input.item)],
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      client_reference_id: input.userId,
      customer_email: input.email,
      metadata: input.metadata,
      ...(input.discount?.promotionCodeId
        ? { discounts: [{ promotion_code: input.discount.promotionCodeId }] }
        : {}),
      ...(input.mode === "subscription"
        ? {
            subscription_data: {
              metadata: input.metadata,
              // A free trial (decision 0083): trialing, a $0 first invoice, the first
              // charge at its end.
              ...(input.trialDays ? { trial_period_days: input.trialDays } : {}),
            },
            // One plan checkout may be open at a time (decision 0051): an abandoned one
            // stops blocking the next after 35 minutes (Stripe's minimum is 30).
            expires_at: nowSeconds(deps) + PLAN_CHECKOUT_LIFETIME_S,
          }
        : { payment_intent_data: { metadata: input.metadata } }),
    });
    if (!session.url) throw new ProviderError("Stripe", "Stripe answered no checkout URL");
    return {
      sessionId: session.id,
      url: session.url,
      expiresAt: new Date(session.expires_at * 1000),
      amountTotalMinor: session.amount_total ?? null,
    };
  });

export const retrieveCheckoutSession = (deps: StripeDeps, sessionId: string) =>
  orNull(deps, async (client) => toSession(await client.checkout.sessions.retrieve(sessionId)));

export const retrievePaymentIntent = (deps: StripeDeps, paymentIntentId: string) =>
  orNull(deps, async (client) =>
    toPaymentIntent(await client.paymentIntents.retrieve(paymentIntentId)),
  );

export const checkoutSessionOfPaymentIntent = (deps: StripeDeps, paymentIntentId: string) =>
  call(deps, async (client) => {
    const found = await client.checkout.sessions.list({
      payment_intent: paymentIntentId,
      limit: 1,
    });
    const session = found.data[0];
    return session ? toSession(session) : null;
  });
