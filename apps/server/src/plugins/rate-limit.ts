import fastifyRateLimit, { type RateLimitOptions } from "@fastify/rate-limit";
import { AUTH_MESSAGES } from "@twinline/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Redis } from "ioredis";
import { HttpError } from "./errors.ts";

export interface RateLimitSettings {
  /** Requests per window, per client IP and route. */
  max: number;
  timeWindowMs: number;
}

/**
 * Sign-up, Google sign-in, forgot and reset password, key tests: per IP and route. The two login
 * routes (user and admin) share ONE per-IP budget of the same size (the login throttle below).
 */
export const DEFAULT_AUTH_RATE_LIMIT: RateLimitSettings = { max: 10, timeWindowMs: 60_000 };

/**
 * Failed logins per account, from every IP together: past `max`, the IPs that failed on the
 * account are refused before their password is checked; an IP without a failure on it still
 * signs in (docs/decisions/0031-login-throttling.md).
 */
export const DEFAULT_LOGIN_ACCOUNT_LIMIT: RateLimitSettings = { max: 5, timeWindowMs: 15 * 60_000 };

/** Counters that expire: in Redis when REDIS_URL is set (every instance), else in this process. */
export interface AttemptCounters {
  /** Adds one to `key` (its window starts with the first hit); answers the count and ms left. */
  hit(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  /** The count of `key` now (0 when none or expired) and ms left. */
  peek(key: string): Promise<{ count: number; ttlMs: number }>;
  reset(key: string): Promise<void>;
}

function memoryCounters(): AttemptCounters {
  const counters = new Map<string, { count: number; resetAt: number }>();
  const live = (key: string) => {
    const entry = counters.get(key);
    if (entry && entry.resetAt <= Date.now()) {
      counters.delete(key);
      return undefined;
    }
    return entry;
  };
  const sweep = () => {
    if (counters.size < 10_000) return;
    const now = Date.now();
    for (const [key, entry] of counters) if (entry.resetAt <= now) counters.delete(key);
  };
  return {
    async hit(key, windowMs) {
      sweep();
      const entry = live(key) ?? { count: 0, resetAt: Date.now() + windowMs };
      entry.count += 1;
      counters.set(key, entry);
      return { count: entry.count, ttlMs: entry.resetAt - Date.now() };
    },
    async peek(key) {
      const entry = live(key);
      return entry
        ? { count: entry.count, ttlMs: entry.resetAt - Date.now() }
        : { count: 0, ttlMs: 0 };
    },
    async reset(key) {
      counters.delete(key);
    },
  };
}

// INCR, and the expiry set by the window's first hit, in one round trip and atomically.
const HIT_SCRIPT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {c, redis.call('PTTL', KEYS[1])}`;

function redisCounters(redis: Redis, prefix: string): AttemptCounters {
  return {
    async hit(key, windowMs) {
      const [count, ttlMs] = (await redis.eval(HIT_SCRIPT, 1, prefix + key, windowMs)) as [
        number,
        number,
      ];
      return { count, ttlMs: Math.max(ttlMs, 0) };
    },
    async peek(key) {
      const [count, ttlMs] = await Promise.all([redis.get(prefix + key), redis.pttl(prefix + key)]);
      return { count: Number(count ?? 0), ttlMs: Math.max(ttlMs, 0) };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}

/** The login routes' throttle: one per-IP budget for both, and failures per account. */
export interface LoginThrottle {
  /**
   * Runs `attempt` (checks the password and signs in) unless the IP's login budget is spent or
   * the account is locked for this IP: then 429. A 401 from `attempt` counts as a failure of
   * the account; a success clears this IP's failures on it.
   */
  guard<T>(request: FastifyRequest, email: string, attempt: () => Promise<T>): Promise<T>;
}

function tooMany(ttlMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new HttpError(429, AUTH_MESSAGES.tooManyAttempts, { retryAfter: seconds }, undefined, {
    "retry-after": String(seconds),
  });
}

export function createLoginThrottle(options: {
  counters: AttemptCounters;
  perIp: RateLimitSettings;
  perAccount: RateLimitSettings;
  /** A counter store that fails must not lock everyone out: the attempt goes on, logged. */
  onStoreError: (error: unknown) => void;
}): LoginThrottle {
  const { counters, perIp, perAccount } = options;
  const safely = async <T>(work: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      options.onStoreError(error);
      return fallback;
    }
  };
  const none = { count: 0, ttlMs: 0 };
  return {
    async guard(request, email, attempt) {
      const account = email.trim().toLowerCase();
      const ipKey = `login:ip:${request.ip}`;
      const accountKey = `login:account:${account}`;
      const accountIpKey = `login:account-ip:${account}:${request.ip}`;
      const ip = await safely(() => counters.hit(ipKey, perIp.timeWindowMs), none);
      if (ip.count > perIp.max) throw tooMany(ip.ttlMs);
      const [failures, mine] = await safely(
        () => Promise.all([counters.peek(accountKey), counters.peek(accountIpKey)]),
        [none, none],
      );
      if (failures.count >= perAccount.max && mine.count > 0) throw tooMany(mine.ttlMs);
      try {
        const result = await attempt();
        if (mine.count > 0) await safely(() => counters.reset(accountIpKey), undefined);
        return result;
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 401) {
          await safely(
            () =>
              Promise.all([
                counters.hit(accountKey, perAccount.timeWindowMs),
                counters.hit(accountIpKey, perAccount.timeWindowMs),
              ]),
            undefined,
          );
        }
        throw error;
      }
    },
  };
}

declare module "fastify" {
  interface FastifyInstance {
    /** Route config for the sign-in family: `config: { rateLimit: app.authRateLimit }`. */
    authRateLimit: RateLimitOptions;
    /** The two login routes' throttle (per IP across both, per account). */
    loginThrottle: LoginThrottle;
  }
}

export interface RateLimitPluginOptions {
  auth: RateLimitSettings;
  /** Failed logins per account (default DEFAULT_LOGIN_ACCOUNT_LIMIT). */
  loginAccount?: RateLimitSettings;
  /** Shared store for several instances; unset keeps the counters in this process. */
  redisUrl: string | undefined;
}

/**
 * @fastify/rate-limit, off by default and switched on per route. The counters are kept per
 * client IP and route, in Redis when REDIS_URL is set. A refused request is a 429 in the error
 * envelope with a Retry-After header.
 */
export const rateLimitPlugin = fp<RateLimitPluginOptions>(
  async (app: FastifyInstance, options) => {
    let redis: Redis | undefined;
    if (options.redisUrl) {
      // Only a multi-instance deployment sets REDIS_URL; the client is not loaded otherwise.
      const { Redis: RedisClient } = await import("ioredis");
      redis = new RedisClient(options.redisUrl, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
      });
      redis.on("error", (error) => app.log.warn({ err: error }, "Rate-limit Redis error"));
      app.addHook("onClose", async () => {
        await redis?.quit().catch(() => {});
      });
    }
    await app.register(fastifyRateLimit, {
      global: false,
      ...(redis ? { redis, nameSpace: "twinline-rl-" } : {}),
      // A broken Redis must not lock everyone out of signing in.
      skipOnError: true,
      errorResponseBuilder: (_request, context) =>
        new HttpError(context.statusCode, AUTH_MESSAGES.tooManyAttempts, {
          retryAfter: context.after,
        }),
    });
    app.decorate<LoginThrottle>(
      "loginThrottle",
      createLoginThrottle({
        counters: redis ? redisCounters(redis, "twinline-login-") : memoryCounters(),
        perIp: options.auth,
        perAccount: options.loginAccount ?? DEFAULT_LOGIN_ACCOUNT_LIMIT,
        onStoreError: (error) => app.log.warn({ err: error }, "Login throttle store error"),
      }),
    );
    app.decorate<RateLimitOptions>("authRateLimit", {
      max: options.auth.max,
      timeWindow: options.auth.timeWindowMs,
    });
  },
  { name: "rate-limit" },
);
