import type { LightMyRequestResponse } from "fastify";
import Stripe from "stripe";
import type { TestApp } from "./create-test-app.ts";

export const WEBHOOK_SECRET = "whsec_test_fake_signing_secret";

/** An event's body and its Stripe-Signature header, signed with the SDK's test helper. */
export function signEvent(event: object, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return { payload, header };
}

/** Delivers an event to POST /api/payments/webhook as Stripe does (no CSRF, signed raw body). */
export function deliver(
  t: TestApp,
  event: object,
  secret = WEBHOOK_SECRET,
): Promise<LightMyRequestResponse> {
  const { payload, header } = signEvent(event, secret);
  return t.app.inject({
    method: "POST",
    url: "/api/payments/webhook",
    headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": header },
    payload,
  });
}
