import { randomBytes } from "node:crypto";
import { API_ROOT, TRIAL_DEVICE_HEADER, TRIAL_DEVICE_MAX_LENGTH } from "@twinline/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The device of the anonymous trial (decision 0084): a random id under the cookie signature. It
 * names no one; the trial's allowance and its conversation hang on it, and the sign-in routes read
 * it to hand the conversation over.
 *
 * Two ways to carry it: the landing page's httpOnly cookie, sent to /api only; and, for the embed
 * frame on another site where the browser keeps no cookie (decision 0089), the same signed value
 * in the TRIAL_DEVICE_HEADER header. A request with the header is read by the header alone: a
 * valid signed id is that device; anything else (absent value, `new`, forged, too long) is no
 * device, never an error.
 */
export const TRIAL_DEVICE_COOKIE = "twinline_trial";
const MAX_AGE_S = 30 * 24 * 60 * 60;

/** The device's header, when the request carries one (the embed frame and its popup). */
function deviceHeader(request: FastifyRequest): string | undefined {
  const value = request.headers[TRIAL_DEVICE_HEADER];
  if (value === undefined) return undefined;
  // Repeated headers arrive as one joined string or a list: neither is a signed id.
  return typeof value === "string" ? value : "";
}

function unsigned(request: FastifyRequest, raw: string): string | undefined {
  if (!raw || raw.length > TRIAL_DEVICE_MAX_LENGTH) return undefined;
  const result = request.unsignCookie(raw);
  return result.valid && result.value ? result.value : undefined;
}

/** Whether the client carries the device in the header (and wants it back there). */
export function carriesDeviceHeader(request: FastifyRequest): boolean {
  return deviceHeader(request) !== undefined;
}

/** The device's id when the request carries a valid one (header first, else the cookie). */
export function trialDevice(request: FastifyRequest): string | undefined {
  const header = deviceHeader(request);
  if (header !== undefined) return unsigned(request, header);
  const raw = request.cookies[TRIAL_DEVICE_COOKIE];
  return raw ? unsigned(request, raw) : undefined;
}

/**
 * The device's id, made now when it has none (or a forged one), and given back the way it came:
 * the signed id in the answer's header for a header-carrying client, else the cookie.
 */
export function ensureTrialDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  secure: boolean,
): string {
  const known = trialDevice(request);
  const device = known ?? randomBytes(18).toString("base64url");
  if (carriesDeviceHeader(request)) {
    reply.header(TRIAL_DEVICE_HEADER, reply.signCookie(device));
    return device;
  }
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
