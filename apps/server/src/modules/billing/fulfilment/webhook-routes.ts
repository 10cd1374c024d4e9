import { BILLING_MESSAGES, isSafeText, routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { HttpError } from "../../../plugins/errors.ts";
import { registerRoute } from "../../../plugins/routes.ts";
import { type PaymentEvent, verifyStripeWebhook } from "../../../providers/payments/index.ts";
import type { Fulfilment } from "./fulfilment.ts";

/**
 * Every string of the event can be stored and compared (no NUL, no lone surrogate), at any
 * depth: a signed event with a malformed id is refused with 400 instead of failing (500) on
 * every delivery.
 */
function storable(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return isSafeText(value);
  if (typeof value !== "object" || value === null) return true;
  if (depth > 32) return false;
  return Object.entries(value).every(([key, item]) => isSafeText(key) && storable(item, depth + 1));
}

const isId = (value: unknown) => typeof value === "string" && value !== "";

export interface WebhookRoutesOptions {
  fulfilment: Fulfilment;
  /** STRIPE_WEBHOOK_SECRET; unset: every delivery is refused (400). */
  webhookSecret: string | undefined;
  /** An event applied (not a replay): its lag since Stripe made it (the metrics). */
  onApplied?: (event: PaymentEvent) => void;
}

/**
 * POST /api/payments/webhook: Stripe's events. No CSRF (not a browser); the signature on the
 * RAW body is the check, so this scope parses JSON as a Buffer. 400 on a bad signature; 200 once
 * applied (or known already); a failure answers 500 and Stripe delivers again.
 */
export const webhookRoutes: FastifyPluginAsync<WebhookRoutesOptions> = async (app, options) => {
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
    done(null, body),
  );

  registerRoute(
    app,
    routes.billing.webhook,
    async (request) => {
      const secret = options.webhookSecret;
      if (!secret) throw new HttpError(400, BILLING_MESSAGES.webhookNotConfigured);
      const signature = request.headers["stripe-signature"];
      const raw = request.body;
      if (typeof signature !== "string" || !Buffer.isBuffer(raw)) {
        throw new HttpError(400, BILLING_MESSAGES.invalidSignature);
      }
      let event: PaymentEvent;
      try {
        event = await verifyStripeWebhook(raw, signature, secret);
      } catch {
        throw new HttpError(400, BILLING_MESSAGES.invalidSignature);
      }
      if (typeof event?.id !== "string" || typeof event.type !== "string" || !event.data?.object) {
        throw new HttpError(400, "Not a Stripe event");
      }
      const object = event.data.object as { id?: unknown };
      if (!isId(event.id) || !isId(object.id) || !storable(event)) {
        throw new HttpError(400, "Not a Stripe event: an id or a value is malformed");
      }
      const handled = await options.fulfilment.handle(event);
      if (!handled.duplicate) options.onApplied?.(event);
      return { received: true as const, ...(handled.duplicate ? { duplicate: true } : {}) };
    },
    { config: { csrf: false } },
  );
};
