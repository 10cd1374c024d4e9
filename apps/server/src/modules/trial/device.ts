import { randomBytes } from "node:crypto";
import { API_ROOT } from "@twinline/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The device cookie of the anonymous trial (decision 0084): a random id under the cookie
 * signature, httpOnly, sent to /api only. It names no one; the trial's allowance and its
 * conversation hang on it, and the sign-in routes read it to hand the conversation over.
 */
export const TRIAL_DEVICE_COOKIE = "twinline_trial";
const MAX_AGE_S = 30 * 24 * 60 * 60;

/** The device's id when it carries a valid cookie. */
export function trialDevice(request: FastifyRequest): string | undefined {
  const raw = request.cookies[TRIAL_DEVICE_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}

/** The device's id, made and set now when it has none (or a forged one). */
export function ensureTrialDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  secure: boolean,
): string {
  const known = trialDevice(request);
  const device = known ?? randomBytes(18).toString("base64url");
  reply.setCookie(TRIAL_DEVICE_COOKIE, device, {
    path: API_ROOT,
    httpOnly: true,
    sameSite: "lax",
    signed: true,
    secure,
    maxAge: MAX_AGE_S,
  });
  return device;
}
