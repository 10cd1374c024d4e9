import { AUTH_COOKIE_PATH } from "@twinline/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The browser of a visitor refused for their age keeps this mark (decision 0054): a later
 * sign-up from it is refused too, whatever date it gives, so trying another date is not a
 * matter of one click. It names no one: the value is a constant under the cookie signature,
 * and nothing is stored on the server. Clearing cookies or another browser gets past it; the
 * decision says so.
 */
export const AGE_REFUSED_COOKIE = "twinline_age_refused";
const AGE_REFUSED_MAX_AGE_S = 30 * 24 * 60 * 60;

export function wasRefusedForAge(request: FastifyRequest): boolean {
  const raw = request.cookies[AGE_REFUSED_COOKIE];
  if (!raw) return false;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value === "1";
}

export function markRefusedForAge(reply: FastifyReply, secure: boolean): void {
  reply.setCookie(AGE_REFUSED_COOKIE, "1", {
    path: AUTH_COOKIE_PATH,
    httpOnly: true,
    sameSite: "strict",
    signed: true,
    secure,
    maxAge: AGE_REFUSED_MAX_AGE_S,
  });
}
