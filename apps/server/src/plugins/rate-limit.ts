import fastifyRateLimit, { type RateLimitOptions } from "@fastify/rate-limit";
import { AUTH_MESSAGES } from "@twinline/contracts";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Redis } from "ioredis";
import { HttpError } from "./errors.ts";

export interface RateLimitSettings {
  /** Requests per window, per client IP and route. */
  max: number;
  timeWindowMs: number;
}

/** Login, sign-up, Google sign-in, forgot and reset password, admin login. */
export const DEFAULT_AUTH_RATE_LIMIT: RateLimitSettings = { max: 10, timeWindowMs: 60_000 };

declare module "fastify" {
  interface FastifyInstance {
    /** Route config for the sign-in family: `config: { rateLimit: app.authRateLimit }`. */
    authRateLimit: RateLimitOptions;
  }
}

export interface RateLimitPluginOptions {
  auth: RateLimitSettings;
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
    app.decorate<RateLimitOptions>("authRateLimit", {
      max: options.auth.max,
      timeWindow: options.auth.timeWindowMs,
    });
  },
  { name: "rate-limit" },
);
