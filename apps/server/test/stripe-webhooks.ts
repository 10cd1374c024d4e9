import type { LightMyRequestResponse } from "fastify";
import type { TestApp } from "./create-test-app.ts";
import { signEvent, WEBHOOK_SECRET } from "./stripe-signature.ts";

export { signEvent, WEBHOOK_SECRET };

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
