import { createHash, randomBytes } from "node:crypto";
import { API_ROOT, tooManyAttemptsMessage } from "@twinline/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AttemptCounters } from "./attempt-counters.ts";
import { HttpError } from "./errors.ts";

export interface RateLimitSettings {
  /** Requests per window, per client address and route. */
  max: number;
  timeWindowMs: number;
}

/**
 * The login routes' throttle (docs/decisions/0038-login-device-cookies.md, OWASP's device
 * cookies): a client without a device cookie for the account is an "untrusted client"; all of
 * them together get `perAccount` attempts on one account per window, and each address its
 * `perIp` budget across both login routes. A device that signed in to the account before
 * carries a signed cookie naming it and gets its own `perDevice` budget instead, which no one
 * else can spend: the owner on their own device is never locked out by someone else.
 */
export interface LoginThrottle {
  /**
   * Runs `attempt` (checks the password and signs in) unless this client's budget is spent:
   * then 429, before the password is checked. A success marks the device as trusted for the
   * account (the device cookie).
   */
  guard<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
    attempt: () => Promise<T>,
  ): Promise<T>;
  /** Marks this device as one that signed in to `email` (sign-up, Google, password reset). */
  trustDevice(request: FastifyRequest, reply: FastifyReply, email: string): void;
  /** Removes this device's cookie for `email` (the account was deleted). */
  forgetDevice(reply: FastifyReply, email: string): void;
}

export interface LoginThrottleOptions {
  counters: AttemptCounters;
  perIp: RateLimitSettings;
  /** Attempts of untrusted clients on one account, from every address together. */
  perAccount: RateLimitSettings;
  /** Attempts of one trusted device on its account. */
  perDevice: RateLimitSettings;
  /** Mark the device cookie Secure (the site is served over https). */
  secureCookies: boolean;
}

export const DEVICE_COOKIE_PREFIX = "twinline_device_";
const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 3600;

function tooMany(ttlMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new HttpError(429, tooManyAttemptsMessage(seconds), { retryAfter: seconds }, undefined, {
    "retry-after": String(seconds),
  });
}

const accountOf = (email: string) => email.trim().toLowerCase();
const digestOf = (account: string) => createHash("sha256").update(account).digest("hex");

/** One cookie per account the device signed in to, so a shared computer keeps each one's. */
export const deviceCookieName = (email: string) =>
  `${DEVICE_COOKIE_PREFIX}${digestOf(accountOf(email)).slice(0, 16)}`;

export function createLoginThrottle(options: LoginThrottleOptions): LoginThrottle {
  const { counters, perIp, perAccount, perDevice } = options;

  /** The device's id when it carries a valid cookie for this account (signed, and naming it). */
  const trustedDevice = (request: FastifyRequest, account: string): string | undefined => {
    const raw = request.cookies[deviceCookieName(account)];
    if (!raw) return undefined;
    const unsigned = request.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value) return undefined;
    const [digest, device] = unsigned.value.split(".");
    // The signature covers the value, not the cookie's name: the value names the account.
    return digest === digestOf(account) && device ? device : undefined;
  };

  const setDeviceCookie = (reply: FastifyReply, account: string, device: string) => {
    reply.setCookie(deviceCookieName(account), `${digestOf(account)}.${device}`, {
      path: API_ROOT,
      httpOnly: true,
      sameSite: "strict",
      signed: true,
      secure: options.secureCookies,
      maxAge: DEVICE_COOKIE_MAX_AGE_S,
    });
  };

  return {
    async guard(request, reply, email, attempt) {
      const account = accountOf(email);
      const device = trustedDevice(request, account);
      // Attempts are counted before the password is checked (atomically, in one INCR), so a
      // burst of parallel guesses cannot all pass one check-then-count.
      const ipKey = `login:ip:${request.ip}`;
      const accountKey = `login:account:${digestOf(account)}`;
      if (device) {
        const mine = await counters.hit(`login:device:${device}`, perDevice.timeWindowMs);
        if (mine.count > perDevice.max) throw tooMany(mine.ttlMs);
      } else {
        const ip = await counters.hit(ipKey, perIp.timeWindowMs);
        if (ip.count > perIp.max) throw tooMany(ip.ttlMs);
        const strangers = await counters.hit(accountKey, perAccount.timeWindowMs);
        if (strangers.count > perAccount.max) throw tooMany(strangers.ttlMs);
      }
      const result = await attempt();
      // The budgets are for failures: a sign-in takes its hits back (issue 24: ten good logins
      // from new addresses locked the eleventh, right password and all, out for 15 minutes).
      if (device) await counters.reset(`login:device:${device}`);
      else await Promise.all([counters.release(ipKey), counters.release(accountKey)]);
      setDeviceCookie(reply, account, device ?? randomBytes(16).toString("base64url"));
      return result;
    },

    forgetDevice(reply, email) {
      reply.clearCookie(deviceCookieName(accountOf(email)), {
        path: API_ROOT,
        httpOnly: true,
        sameSite: "strict",
        secure: options.secureCookies,
      });
    },

    trustDevice(request, reply, email) {
      const account = accountOf(email);
      setDeviceCookie(
        reply,
        account,
        trustedDevice(request, account) ?? randomBytes(16).toString("base64url"),
      );
    },
  };
}
