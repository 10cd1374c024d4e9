import { randomUUID } from "node:crypto";
import { CONTACT_MESSAGES, routes, tooManyAttemptsMessage } from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { HttpError } from "../../plugins/errors.ts";
import type { RateLimitSettings } from "../../plugins/rate-limit.ts";
import { registerRoute } from "../../plugins/routes.ts";
import type { SettingsService } from "../settings/service.ts";
import { enqueueFanEmail } from "./enqueue.ts";

/** Messages one address may send, and all addresses together (docs/decisions/0067). */
export interface ContactLimits {
  perAddress: RateLimitSettings;
  overall: RateLimitSettings;
}

export const DEFAULT_CONTACT_LIMITS: ContactLimits = {
  perAddress: { max: 5, timeWindowMs: 60 * 60_000 },
  overall: { max: 100, timeWindowMs: 60 * 60_000 },
};

export interface ContactRoutesOptions {
  limits: ContactLimits;
  /** The contact address is the settings'. */
  settings: Pick<SettingsService, "get">;
  /** Runs the sender after the message is queued. */
  kick: () => void;
}

/**
 * POST /api/contact: a visitor's message to the operator, mailed (through the e-mail queue) to
 * the contact address of the settings, with Reply-To the visitor's. No CAPTCHA; abuse is bounded
 * by a per-address and an overall limit on the shared counters (Redis when set), length limits,
 * and a hidden field that only bots fill.
 */
export const contactRoutes: FastifyPluginAsyncZod<ContactRoutesOptions> = async (app, options) => {
  const { limits } = options;
  const refuseOver = async (key: string, limit: RateLimitSettings) => {
    const { count, ttlMs } = await app.attemptCounters.hit(key, limit.timeWindowMs);
    if (count > limit.max) {
      const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
      throw new HttpError(429, tooManyAttemptsMessage(seconds), undefined, undefined, {
        "retry-after": String(seconds),
      });
    }
  };

  registerRoute(app, routes.mail.contact, async (request) => {
    await refuseOver(`contact:address:${request.ip}`, limits.perAddress);
    await refuseOver("contact:all", limits.overall);
    const { name, email, message, website } = request.body;
    // A bot filled the field no person sees: it is told "sent" and nothing is sent.
    if (website) return { success: true as const, message: CONTACT_MESSAGES.sent };
    const { contactEmail } = await options.settings.get();
    if (!contactEmail) throw new HttpError(503, CONTACT_MESSAGES.unavailable);
    await enqueueFanEmail(app.database.db, {
      kind: "contact_message",
      key: `contact:${randomUUID()}`,
      toAddress: contactEmail,
      payload: { fromName: name, fromEmail: email, message },
    });
    options.kick();
    return { success: true as const, message: CONTACT_MESSAGES.sent };
  });
};
