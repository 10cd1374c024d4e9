import type { FastifyRateLimitStore } from "@fastify/rate-limit";
import type { Redis } from "ioredis";

/** Counters that expire: in Redis when REDIS_URL is set (every instance), else in this process. */
export interface AttemptCounters {
  /** Adds one to `key` (its window starts with the first hit); answers the count and ms left. */
  hit(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  /** The count of `key` now (0 when none or expired) and ms left. */
  peek(key: string): Promise<{ count: number; ttlMs: number }>;
  reset(key: string): Promise<void>;
  /** Takes back one hit of `key` (never below 0; the window keeps its end). */
  release(key: string): Promise<void>;
}

export function memoryCounters(): AttemptCounters {
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
    async release(key) {
      const entry = live(key);
      if (entry && entry.count > 0) entry.count -= 1;
    },
  };
}

// INCR, and the expiry set by the window's first hit, in one round trip and atomically.
const HIT_SCRIPT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {c, redis.call('PTTL', KEYS[1])}`;

export function redisCounters(redis: Redis, prefix: string): AttemptCounters {
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
    async release(key) {
      await redis.eval(RELEASE_SCRIPT, 1, prefix + key);
    },
  };
}

// DECR only a live count (DECR keeps the expiry; on a missing key it would make a lasting -1).
const RELEASE_SCRIPT = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

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
    peek: either((c) => c.peek),
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
