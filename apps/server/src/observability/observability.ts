import type { FastifyPluginAsync } from "fastify";
import type { Config } from "../config.ts";
import { exportFailureWarner, type Warn } from "./export-failures.ts";

/**
 * Metrics and traces (docs/decisions/0070-metrics-and-traces.md). Both are off unless configured
 * (METRICS_TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT); off, nothing of prom-client or OpenTelemetry is
 * even loaded (they cost ~0.5 s to import) and every call below is a no-op.
 */

/** The providers whose calls are timed and traced (providers/resolve.ts, mail). */
export type ProviderKind = "llm" | "stt" | "tts" | "moderation" | "payments" | "mail";

/** A labelled value of a gauge, read at each scrape. */
export interface GaugeSample {
  labels?: Record<string, string>;
  value: number;
}

export interface GaugeDefinition {
  /** Prometheus name, `twinline_` first (twinline_job_queue_depth). */
  name: string;
  help: string;
  labelNames?: readonly string[];
  /** Read at each scrape of /metrics: nothing runs between scrapes. */
  collect(): number | GaugeSample[] | Promise<number | GaugeSample[]>;
}

export interface CounterDefinition {
  name: string;
  help: string;
  labelNames?: readonly string[];
}

export interface CounterHandle {
  inc(labels?: Record<string, string>, value?: number): void;
}

/** What the app records; every method is a no-op while metrics are off. */
export interface Metrics {
  readonly enabled: boolean;
  /** One request done: its route template (never the raw URL), method and status. */
  request(method: string, route: string, statusCode: number, seconds: number): void;
  /** One provider call done (provider-calls.ts); `outcome` error counts in the errors too. */
  providerCall(
    provider: ProviderKind,
    implementation: string,
    operation: string,
    seconds: number,
    outcome: "ok" | "error" | "aborted",
  ): void;
  /** A live call: from the fan's end of speech (the utterance in) to the reply's first audio out. */
  voiceFirstAudio(seconds: number): void;
  /** A payment event applied: how long after the provider made it (`created`). */
  webhookLag(source: "stripe" | "sandbox", seconds: number): void;
  /**
   * The job queues' depths by queue, read at each scrape (twinline_job_queue_depth{queue});
   * the last reader given wins.
   */
  jobQueues(read: () => Record<string, number> | Promise<Record<string, number>>): void;
  /** A job failed (twinline_job_failures_total{queue}). */
  jobFailed(queue: string): void;
  /** Any other gauge, read at each scrape (a module's own state). */
  gauge(definition: GaugeDefinition): void;
  /** Any other counter. */
  counter(definition: CounterDefinition): CounterHandle;
  /** The exposition text of every metric, and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** A span in progress (tracing.ts); `run` makes it the parent of what `fn` starts. */
export interface ActiveSpan {
  run<T>(fn: () => T): T;
  /** A moment inside the span (an LLM stream's first chunk). */
  event(name: string): void;
  /** Ends it; an error marks it failed (its message redacted). */
  end(error?: unknown): void;
}

export interface Tracing {
  /** A child of the active span (the request's), not yet current: see ActiveSpan.run. */
  startSpan(name: string, attributes: Record<string, string | number | boolean>): ActiveSpan;
  /** The Fastify plugin (@fastify/otel) that gives each request its span; registered first. */
  plugin: FastifyPluginAsync;
  /** Sends the spans still buffered and stops (the app's close). */
  shutdown(): Promise<void>;
}

export interface Observability {
  metrics: Metrics;
  /** Undefined while tracing is off: callers skip the span altogether. */
  tracing: Tracing | undefined;
}

const nothing = () => {};

export const NO_METRICS: Metrics = {
  enabled: false,
  request: nothing,
  providerCall: nothing,
  voiceFirstAudio: nothing,
  webhookLag: nothing,
  jobQueues: nothing,
  jobFailed: nothing,
  gauge: nothing,
  counter: () => ({ inc: nothing }),
  render: async () => ({ contentType: "text/plain", body: "" }),
};

export const NO_OBSERVABILITY: Observability = { metrics: NO_METRICS, tracing: undefined };

/**
 * Loads prom-client and OpenTelemetry only when the config switches them on. `warn` reaches
 * the app's log (a failing OTLP endpoint: exportFailureWarner).
 */
export async function openObservability(config: Config, warn?: Warn): Promise<Observability> {
  const metrics = config.metricsToken
    ? await (await import("./prometheus.ts")).createPrometheusMetrics()
    : NO_METRICS;
  const tracing = config.otel.endpoint
    ? await (await import("./tracing.ts")).startTracing({
        endpoint: config.otel.endpoint,
        serviceName: config.otel.serviceName,
        ...(warn
          ? { onExportFailure: exportFailureWarner({ endpoint: config.otel.endpoint, warn }) }
          : {}),
      })
    : undefined;
  return { metrics, tracing };
}
