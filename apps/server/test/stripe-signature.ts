import Stripe from "stripe";

/** The signing secret the tests and the billing bench configure (STRIPE_WEBHOOK_SECRET). */
export const WEBHOOK_SECRET = "whsec_test_fake_signing_secret";

/**
 * An event's body and its Stripe-Signature header, signed with the SDK's test helper, dated
 * now or at `timestamp` (Unix seconds).
 */
export function signEvent(event: object, secret = WEBHOOK_SECRET, timestamp?: number) {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
  return { payload, header };
}
