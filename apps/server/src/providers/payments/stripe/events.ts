// A webhook's event: its signature checked, and the payment intent it carries.
import type Stripe from "stripe";
import type { PaymentEvent, PaymentIntentInfo } from "../types.ts";
import { loadStripe } from "./client.ts";
import { toPaymentIntent } from "./mappers.ts";

/** How far a webhook's signing time may be from now, either way (Stripe's default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Checks a webhook's `Stripe-Signature` on the raw body with the signing secret (the SDK's
 * constructEvent: HMAC-SHA256, 5 minutes' tolerance). The SDK only refuses a signature too old;
 * one dated in the future is refused here, so a signed body dated ahead cannot be replayed for
 * as long as that date allows. Throws when it does not match.
 */
export async function verifyStripeWebhook(
  rawBody: Buffer,
  signature: string,
  secret: string,
): Promise<PaymentEvent> {
  const StripeSdk = await loadStripe();
  const event = StripeSdk.webhooks.constructEvent(
    rawBody,
    signature,
    secret,
    WEBHOOK_TOLERANCE_SECONDS,
  );
  // constructEvent accepted it, so the header has its `t=` (Unix seconds).
  const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1]);
  if (!(signedAt - Date.now() / 1000 <= WEBHOOK_TOLERANCE_SECONDS)) {
    throw new Error("Webhook signature dated in the future");
  }
  return event as unknown as PaymentEvent;
}

/**
 * The payment intent a `payment_intent.*` event carries, as it was when the event was made (the
 * signature proves it is Stripe's): a failed attempt's error is only there, since the intent
 * itself forgets it at the buyer's next attempt. Null when the event carries no payment intent.
 */
export function paymentIntentOfEvent(event: PaymentEvent): PaymentIntentInfo | null {
  const object = event.data.object;
  if (object.object !== "payment_intent" || typeof object.id !== "string") return null;
  return toPaymentIntent(object as unknown as Stripe.PaymentIntent);
}
