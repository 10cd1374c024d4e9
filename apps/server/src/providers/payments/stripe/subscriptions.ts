// A subscription at Stripe: read, its plan changed (with proration), cancelled or resumed.
import type Stripe from "stripe";
import { ProviderError } from "../../errors.ts";
import type { CheckoutItem } from "../types.ts";
import { call, orNull, type StripeDeps } from "./client.ts";
import { toSubscription } from "./mappers.ts";

export const retrieveSubscription = (deps: StripeDeps, subscriptionId: string) =>
  orNull(deps, async (client) =>
    toSubscription(await client.subscriptions.retrieve(subscriptionId)),
  );

/** The subscription's item and the plan's price a change swaps; refused when either is missing. */
function itemAndPrice(current: Stripe.Subscription, item: CheckoutItem) {
  const itemId = current.items.data[0]?.id;
  if (!itemId || !item.priceId) {
    throw new ProviderError("Stripe", "The subscription or the plan has no Stripe price");
  }
  return { id: itemId, price: item.priceId };
}

export const previewPriceChange = (deps: StripeDeps, subscriptionId: string, item: CheckoutItem) =>
  call(deps, async (client) => {
    const current = await client.subscriptions.retrieve(subscriptionId);
    const preview = await client.invoices.createPreview({
      subscription: subscriptionId,
      subscription_details: {
        items: [itemAndPrice(current, item)],
        proration_behavior: "always_invoice",
      },
    });
    return { amountDueMinor: preview.amount_due, currency: preview.currency };
  });

export const changeSubscriptionPrice = (
  deps: StripeDeps,
  subscriptionId: string,
  item: CheckoutItem,
  metadata: Record<string, string>,
  idempotencyKey: string,
) =>
  call(deps, async (client) => {
    const current = await client.subscriptions.retrieve(subscriptionId);
    const items = [itemAndPrice(current, item)];
    // always_invoice: an upgrade's proration is charged at once; a downgrade's negative
    // invoice goes to the customer's balance, which Stripe applies to the next invoice.
    return toSubscription(
      await client.subscriptions.update(
        subscriptionId,
        {
          items,
          proration_behavior: "always_invoice",
          // A proration the card refuses fails the call and changes nothing (402).
          payment_behavior: "error_if_incomplete",
          cancel_at_period_end: false,
          metadata: { ...current.metadata, ...metadata, changeKey: idempotencyKey },
        },
        { idempotencyKey },
      ),
    );
  });

export const cancelAtPeriodEnd = (deps: StripeDeps, subscriptionId: string) =>
  call(deps, async (client) =>
    toSubscription(
      await client.subscriptions.update(subscriptionId, { cancel_at_period_end: true }),
    ),
  );

export const resumeSubscription = (deps: StripeDeps, subscriptionId: string) =>
  call(deps, async (client) =>
    toSubscription(
      await client.subscriptions.update(subscriptionId, { cancel_at_period_end: false }),
    ),
  );

export const cancelNow = (deps: StripeDeps, subscriptionId: string) =>
  call(deps, async (client) =>
    toSubscription(await client.subscriptions.cancel(subscriptionId, { prorate: false })),
  );
