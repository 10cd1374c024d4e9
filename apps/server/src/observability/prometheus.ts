import type { GaugeSample, Metrics } from "./observability.ts";

// Seconds. Requests are mostly fast; providers and voice are seconds; webhooks may lag minutes.
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const PROVIDER_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];
const FIRST_AUDIO_BUCKETS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 5, 10];
const WEBHOOK_LAG_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 1800, 3600, 86_400];

/**
 * The app's metrics on prom-client, in a registry of its own (two apps in one process, as in
 * tests, never share a series), with Node's default metrics: event-loop delay (from
 * perf_hooks.monitorEventLoopDelay), heap, GC, handles.
 */
export async function createPrometheusMetrics(): Promise<Metrics> {
  // Imported here, not at the top: the bundle keeps a dynamic import dynamic (build.mjs), so a
  // server without METRICS_TOKEN never loads prom-client.
  const { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } = await import(
    "prom-client"
  );
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP requests by route template (not the raw URL), method and status",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const providerCalls = new Histogram({
    name: "twinline_provider_call_duration_seconds",
    help: "Provider calls (LLM, STT, TTS, moderation, payments, mail) by outcome",
    labelNames: ["provider", "implementation", "operation", "outcome"] as const,
    buckets: PROVIDER_BUCKETS,
    registers,
  });
  const providerErrors = new Counter({
    name: "twinline_provider_errors_total",
    help: "Provider calls that failed (an abort by the caller is not a failure)",
    labelNames: ["provider", "implementation", "operation"] as const,
    registers,
  });
  const firstAudio = new Histogram({
    name: "twinline_voice_first_audio_seconds",
    help: "Live calls: from the fan's end of speech (utterance received) to the reply's first audio sent",
    buckets: FIRST_AUDIO_BUCKETS,
    registers,
  });
  const webhookLag = new Histogram({
    name: "twinline_webhook_lag_seconds",
    help: "Payment events: from the provider's creation of the event to its processing here",
    labelNames: ["source"] as const,
    buckets: WEBHOOK_LAG_BUCKETS,
    registers,
  });
  let readQueues: () => Record<string, number> | Promise<Record<string, number>> = () => ({});
  new Gauge({
    name: "twinline_job_queue_depth",
    help: "Jobs waiting, by queue",
    labelNames: ["queue"] as const,
    registers,
    async collect() {
      const depths = await readQueues();
      this.reset();
      for (const [queue, depth] of Object.entries(depths)) this.set({ queue }, depth);
    },
  });
  const jobFailures = new Counter({
    name: "twinline_job_failures_total",
    help: "Jobs that failed, by queue",
    labelNames: ["queue"] as const,
    registers,
  });

  return {
    enabled: true,
    request(method, route, statusCode, seconds) {
      requests.observe({ method, route, status_code: statusCode }, seconds);
    },
    providerCall(provider, implementation, operation, seconds, outcome) {
      const labels = { provider, implementation, operation };
      providerCalls.observe({ ...labels, outcome }, seconds);
      if (outcome === "error") providerErrors.inc(labels);
    },
    voiceFirstAudio: (seconds) => firstAudio.observe(seconds),
    webhookLag: (source, seconds) => webhookLag.observe({ source }, Math.max(0, seconds)),
    jobQueues(read) {
      readQueues = read;
    },
    jobFailed: (queue) => jobFailures.inc({ queue }),
    gauge(definition) {
      new Gauge({
        name: definition.name,
        help: definition.help,
        labelNames: definition.labelNames ?? [],
        registers,
        async collect() {
          const read = await definition.collect();
          this.reset();
          if (typeof read === "number") this.set(read);
          else
            for (const sample of read as GaugeSample[]) this.set(sample.labels ?? {}, sample.value);
        },
      });
    },
    counter(definition) {
      const counter = new Counter({
        name: definition.name,
        help: definition.help,
        labelNames: definition.labelNames ?? [],
        registers,
      });
      return { inc: (labels = {}, value = 1) => counter.inc(labels, value) };
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
