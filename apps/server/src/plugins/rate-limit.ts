import fastifyRateLimit, { type RateLimitOptions } from "@fastify/rate-limit";
import { tooManyAttemptsMessage } from "@twinline/contracts";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Redis } from "ioredis";
import {
  type AttemptCounters,
  countersStore,
  type FailClosedCounters,
  failClosedCounters,
  memoryCounters,
  redisCounters,
} from "./attempt-counters.ts";
import { HttpError } from "./errors.ts";
import {
  createLoginThrottle,
  type LoginThrottle,
  type RateLimitSettings,
} from "./login-throttle.ts";

export type { AttemptCounters, LoginThrottle, RateLimitSettings };

/**
 * Sign-up, Google sign-in, forgot and reset password, key tests: per client address and route.
 * The two login routes (user and admin) share ONE per-address budget of the same size.
 */
export const DEFAULT_AUTH_RATE_LIMIT: RateLimitSettings = { max: 10, timeWindowMs: 60_000 };

/**
 * Login attempts on one account by clients without its device cookie, from every address
 * together; a trusted device gets the same budget of its own (docs/decisions/0038).
 */
export const DEFAULT_LOGIN_ACCOUNT_LIMIT: RateLimitSettings = {
  max: 10,
  timeWindowMs: 15 * 60_000,
};

/** Where the limits count now; `degraded` while Redis fails and each instance counts alone. */
export interface RateLimitHealth {
  store: "memory" | "redis";
  status: "up" | "degraded";
}

declare module "fastify" {
  interface FastifyInstance {
    /** Route config for the sign-in family: `config: { rateLimit: app.authRateLimit }`. */
    authRateLimit: RateLimitOptions;
    /** The two login routes' throttle (per address, per account, per trusted device). */
    loginThrottle: LoginThrottle;
    /** The counters every limit uses (route limits and the login throttle). */
    attemptCounters: AttemptCounters;
    rateLimitHealth(): RateLimitHealth;
  }
}

export interface RateLimitPluginOptions {
  auth: RateLimitSettings;
  /** Login attempts per account and per trusted device (default DEFAULT_LOGIN_ACCOUNT_LIMIT). */
  loginAccount?: RateLimitSettings;
  /** Shared store for several instances; unset keeps the counters in this process. */
  redisUrl: string | undefined;
  /** Prefix of every key in Redis (tests sharing one Redis give each run its own). */
  keyPrefix?: string;
  /** Device cookies are Secure (the site is served over https). */
  secureCookies?: boolean;
}

// A Redis that hangs must not hang the requests it counts: past this, the process counts.
const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * Every limit of the app, on ONE store: @fastify/rate-limit (off by default, switched on per
 * route with `config.rateLimit`) and the login throttle. The counters are kept per client
 * address (the proxy's client, with TRUST_PROXY), in Redis when REDIS_URL is set, and fail
 * closed: a Redis that fails hands every count to this process's store, never skips a limit.
 * A refused request is a 429 in the error envelope with a Retry-After header.
 */
export const rateLimitPlugin = fp<RateLimitPluginOptions>(
  async (app: FastifyInstance, options) => {
    const prefix = options.keyPrefix ?? "twinline-";
    let redis: Redis | undefined;
    let counters: AttemptCounters | FailClosedCounters = memoryCounters();
    if (options.redisUrl) {
      // Only a multi-instance deployment sets REDIS_URL; the client is not loaded otherwise.
      const { Redis: RedisClient } = await import("ioredis");
      redis = new RedisClient(options.redisUrl, {
        maxRetriesPerRequest: 1,
        // A command while disconnected fails at once (and is counted here) instead of queueing.
        enableOfflineQueue: false,
        commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      });
      redis.on("error", (error) => app.log.warn({ err: error }, "Rate-limit Redis error"));
      app.addHook("onClose", async () => {
        redis?.disconnect();
      });
      counters = failClosedCounters(redisCounters(redis, prefix), counters, (error) =>
        app.log.error(
          { err: error },
          "Rate-limit Redis unavailable: limits count in this process until it is back",
        ),
      );
    }
    const shared = counters;
    await app.register(fastifyRateLimit, {
      global: false,
      store: countersStore(shared),
      // The store falls back on its own; an error past that refuses the request (fail closed).
      skipOnError: false,
      errorResponseBuilder: (_request, context) =>
        new HttpError(context.statusCode, tooManyAttemptsMessage(context.ttl / 1000), {
          retryAfter: context.after,
        }),
    });
    const loginAccount = options.loginAccount ?? DEFAULT_LOGIN_ACCOUNT_LIMIT;
    app.decorate<AttemptCounters>("attemptCounters", shared);
    app.decorate<LoginThrottle>(
      "loginThrottle",
      createLoginThrottle({
        counters: shared,
        perIp: options.auth,
        perAccount: loginAccount,
        perDevice: loginAccount,
        secureCookies: options.secureCookies ?? false,
      }),
    );
    app.decorate("rateLimitHealth", (): RateLimitHealth => {
      if (!redis) return { store: "memory", status: "up" };
      const down = redis.status !== "ready" || ("degraded" in shared && shared.degraded());
      return { store: "redis", status: down ? "degraded" : "up" };
    });
    app.decorate<RateLimitOptions>("authRateLimit", {
      max: options.auth.max,
      timeWindow: options.auth.timeWindowMs,
    });
  },
  { name: "rate-limit" },
);
