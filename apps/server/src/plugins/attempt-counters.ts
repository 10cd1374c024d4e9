import type { FastifyRateLimitStore } from "@fastify/rate-limit";
import type { Redis } from "ioredis";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterRes,
} from "rate-limiter-flexible";

/** Counters that expire: in Redis when REDIS_URL is set (every instance), else in this process. */
export interface AttemptCounters {
  /** Adds one to `key` (its window starts with the first hit); answers the count and ms left. */
  hit(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  reset(key: string): Promise<void>;
  /** Takes back one hit of `key` (the window keeps its end). */
  release(key: string): Promise<void>;
}

/**
 * The counters on a rate-limiter-flexible limiter (docs/decisions/0087): each hit sets its own
 * window (`customDuration`), the limit is the caller's, so the limiter never refuses by itself.
 */
function limiterCounters(limiter: RateLimiterAbstract, prefix: string): AttemptCounters {
  return {
    async hit(key, windowMs) {
      const res: RateLimiterRes = await limiter.consume(prefix + key, 1, {
        customDuration: windowMs / 1000,
      });
      return { count: res.consumedPoints, ttlMs: Math.max(res.msBeforeNext, 0) };
    },
    async reset(key) {
      await limiter.delete(prefix + key);
    },
    async release(key) {
      // A live count keeps its window; one that expired meanwhile becomes -1 for one second.
      await limiter.reward(prefix + key, 1, { customDuration: 1 });
    },
  };
}

// The limiter itself never refuses (the callers compare the count with their limit).
// `duration` is a default that no call uses: each passes its window.
const UNLIMITED = { points: Number.MAX_SAFE_INTEGER, duration: 60, keyPrefix: "" };

export const memoryCounters = (): AttemptCounters =>
  limiterCounters(new RateLimiterMemory(UNLIMITED), "");

export const redisCounters = (redis: Redis, prefix: string): AttemptCounters =>
  limiterCounters(new RateLimiterRedis({ ...UNLIMITED, storeClient: redis }), prefix);

const SHARED_RETRY_MS = 1_000;

/** The counters plus whether they are the shared ones right now (the health check shows it). */
export interface FailClosedCounters extends AttemptCounters {
  /** True while the shared store fails and this process counts on its own. */
  degraded(): boolean;
}

/**
 * Shared counters that never switch a limit off: when the shared store fails, every count goes
 * to this process's own store until the shared one answers again (docs/decisions/0038). A
 * client then gets at most one budget per instance, never an unlimited one.
 */
export function failClosedCounters(
  shared: AttemptCounters,
  local: AttemptCounters,
  onFailure: (error: unknown) => void,
): FailClosedCounters {
  let failing = false;
  let retryAt = 0;
  const either =
    <A extends unknown[], R>(pick: (counters: AttemptCounters) => (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      // A Redis that hangs costs its command timeout: while it fails, ask it once a second.
      if (failing && Date.now() < retryAt) return pick(local)(...args);
      try {
        const result = await pick(shared)(...args);
        failing = false;
        return result;
      } catch (error) {
        if (!failing) onFailure(error);
        failing = true;
        retryAt = Date.now() + SHARED_RETRY_MS;
        return pick(local)(...args);
      }
    };
  return {
    hit: either((c) => c.hit),
    reset: either((c) => c.reset),
    release: either((c) => c.release),
    degraded: () => failing,
  };
}

/**
 * A @fastify/rate-limit store on the app's counters, so that route limits (`config.rateLimit`)
 * fail closed exactly like the login throttle: one store for every limit.
 */
export function countersStore(counters: AttemptCounters, prefix = "route:") {
  return class CountersStore implements FastifyRateLimitStore {
    constructor(
      _options?: unknown,
      readonly keyPrefix = prefix,
    ) {}
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      counters.hit(this.keyPrefix + key, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }
    child(routeOptions: Parameters<FastifyRateLimitStore["child"]>[0]): FastifyRateLimitStore {
      // The plugin passes the route's merged limit settings, with the route under `routeInfo`.
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: string } }).routeInfo;
      return new CountersStore(undefined, `${this.keyPrefix}${route?.method}${route?.url}-`);
    }
  };
}
