import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { HttpError } from "../plugins/errors.ts";
import type { Metrics, Observability } from "./observability.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Metrics and traces; `metrics` is a no-op and `tracing` undefined while they are off. */
    observability: Observability;
  }
}

export const METRICS_PATH = "/metrics";

export const METRICS_MESSAGES = {
  unauthorized: "A valid metrics token is required",
} as const;

// The route of a request that matched none (a 404): one series, never one per URL tried.
const UNMATCHED_ROUTE = "unmatched";

const digest = (value: string) => createHash("sha256").update(value).digest();

/** The Authorization header carries the token (compared in constant time, whatever its length). */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(given), expected);
}

/** Gauges read at each scrape from what the app already keeps: nothing runs between scrapes. */
function registerAppGauges(app: FastifyInstance, metrics: Metrics): void {
  if (app.hasDecorator("voice")) {
    metrics.gauge({
      name: "twinline_voice_live_calls",
      help: "Live voice calls on this instance",
      collect: () => app.voice.live.size,
    });
  }
  const connection = app.database;
  metrics.gauge({
    name: "twinline_db_pool_connections",
    help: "Database connections: total, idle, and requests waiting for one (PGlite: one connection, statements waiting on its thread)",
    labelNames: ["state"],
    collect: () => {
      if (connection.kind === "postgres") {
        const { pool } = connection;
        return [
          { labels: { state: "total" }, value: pool.totalCount },
          { labels: { state: "idle" }, value: pool.idleCount },
          { labels: { state: "waiting" }, value: pool.waitingCount },
        ];
      }
      const pending = connection.client.pendingCalls();
      return [
        { labels: { state: "total" }, value: 1 },
        { labels: { state: "idle" }, value: pending === 0 ? 1 : 0 },
        { labels: { state: "waiting" }, value: Math.max(0, pending - 1) },
      ];
    },
  });
  metrics.gauge({
    name: "twinline_rate_limit_store_degraded",
    help: "1 while the rate limits' store (Redis) fails and this instance counts alone, else 0",
    labelNames: ["store"],
    collect: () => {
      const health = app.rateLimitHealth();
      return [{ labels: { store: health.store }, value: health.status === "up" ? 0 : 1 }];
    },
  });
}

export interface ObservabilityPluginOptions {
  observability: Observability;
  /** METRICS_TOKEN; unset: no /metrics route at all (the app's 404). */
  metricsToken: string | undefined;
}

/**
 * With metrics on: every request timed by route template, GET /metrics behind its bearer token
 * (never public), and the app's gauges. Registered after the error handler (the 401's shape)
 * and before the modules; the gauges read the modules' state once the app is ready.
 */
export const observabilityPlugin = fp<ObservabilityPluginOptions>(
  async (app: FastifyInstance, options) => {
    const { metrics } = options.observability;
    if (!metrics.enabled || !options.metricsToken) return;
    const expected = digest(options.metricsToken);

    app.addHook("onResponse", (request, reply, done) => {
      metrics.request(
        request.method,
        request.routeOptions.url ?? UNMATCHED_ROUTE,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });

    app.get(
      METRICS_PATH,
      // Not in the API document; no span for each scrape.
      { schema: { hide: true }, config: { otel: false } },
      async (request, reply) => {
        if (!bearerMatches(request.headers.authorization, expected)) {
          throw new HttpError(401, METRICS_MESSAGES.unauthorized, undefined, undefined, {
            "www-authenticate": "Bearer",
          });
        }
        const { contentType, body } = await metrics.render();
        return reply.header("cache-control", "no-store").type(contentType).send(body);
      },
    );

    app.addHook("onReady", async () => registerAppGauges(app, metrics));
  },
  { name: "observability" },
);
