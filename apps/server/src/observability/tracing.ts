import type { Span } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-node";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { redactSecrets } from "../lib/secret-values.ts";
import type { ActiveSpan, Tracing } from "./observability.ts";

/** The request span's attribute carrying the request id (the log's reqId, the x-request-id). */
export const REQUEST_ID_ATTRIBUTE = "http.request.id";

/**
 * What a span may say of an error: no configured secret by value, and no bound parameter of a
 * failed query (drizzle writes them into its message after "params:"; logging.ts does the same
 * for the log).
 */
export function scrubSpanText(text: string): string {
  return redactSecrets(text.replace(/\nparams: .*$/gm, ""));
}

/**
 * Every span's error texts scrubbed (scrubSpanText) on their way out, whoever recorded them;
 * an export that failed is told to `onFailure` (OpenTelemetry itself says nothing).
 */
function scrubbingExporter(inner: SpanExporter, onFailure: (error: unknown) => void): SpanExporter {
  const scrub = (span: ReadableSpan): ReadableSpan => {
    const hasText = span.status.message || span.events.some((event) => event.attributes);
    if (!hasText) return span;
    const status = span.status.message
      ? { ...span.status, message: scrubSpanText(span.status.message) }
      : span.status;
    const events = span.events.map((event) =>
      event.attributes
        ? {
            ...event,
            attributes: Object.fromEntries(
              Object.entries(event.attributes).map(([key, value]) => [
                key,
                typeof value === "string" ? scrubSpanText(value) : value,
              ]),
            ),
          }
        : event,
    );
    // The span itself stays as it is (read-only); the exporter reads this view of it.
    return Object.create(span, { status: { value: status }, events: { value: events } });
  };
  return {
    export: (spans, done) =>
      inner.export(spans.map(scrub), (result) => {
        // ExportResultCode.SUCCESS is 0 (@opentelemetry/core, not a dependency of ours).
        if (result.code !== 0) onFailure(result.error);
        done(result);
      }),
    shutdown: () => inner.shutdown(),
    ...(inner.forceFlush ? { forceFlush: () => inner.forceFlush?.() ?? Promise.resolve() } : {}),
  };
}

/**
 * The request span: named by its route template, carrying the request id; and the request's
 * log lines carry the trace id, so a log line and its trace find each other both ways.
 */
function describeRequest(span: Span, request: FastifyRequest): void {
  span.setAttribute(REQUEST_ID_ATTRIBUTE, request.id);
  span.updateName(`${request.method} ${request.routeOptions.url ?? "unmatched"}`);
  request.log = request.log.child({ traceId: span.spanContext().traceId });
  // A WebSocket (the voice call) never answers through Fastify, so its span would never end:
  // it ends with the connection, and spans the whole call.
  if (request.headers.upgrade?.toLowerCase() === "websocket") {
    request.raw.socket.once("close", () => span.end());
  }
}

export interface TracingOptions {
  /** OTLP base URL (OTEL_EXPORTER_OTLP_ENDPOINT): spans go to its /v1/traces, as JSON. */
  endpoint: string;
  serviceName: string;
  /** Told of each failed export (observability.ts: a rate-limited warning in the log). */
  onExportFailure?: (error: unknown) => void;
}

/**
 * OpenTelemetry's Node tracer provider, exporting OTLP/HTTP in batches, registered as the
 * process's provider (AsyncLocalStorage context, W3C trace context from incoming headers), and
 * @fastify/otel for the request spans. No auto-instrumentation: provider calls and database
 * transactions get their spans from the app's own wrappers (provider-calls.ts,
 * db/traced-transactions.ts), which work alike for PGlite's thread and PostgreSQL.
 */
export async function startTracing(options: TracingOptions): Promise<Tracing> {
  // Imported here, not at the top: the bundle keeps a dynamic import dynamic (build.mjs), so a
  // server without OTEL_EXPORTER_OTLP_ENDPOINT never loads OpenTelemetry (~0.5 s).
  const [
    { FastifyOtelInstrumentation },
    { context, propagation, SpanKind, SpanStatusCode, trace },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { BatchSpanProcessor, NodeTracerProvider },
    { ATTR_SERVICE_NAME },
  ] = await Promise.all([
    import("@fastify/otel"),
    import("@opentelemetry/api"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/semantic-conventions"),
  ]);
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(scrubbingExporter(exporter, options.onExportFailure ?? (() => {}))),
    ],
  });
  provider.register();
  const tracer = provider.getTracer("twinline");

  // The request span and the route handler's; no span per hook (a dozen per request, noise).
  const instrumentation = new FastifyOtelInstrumentation({
    instrumentHooks: false,
    requestHook: (span, request) => describeRequest(span, request as FastifyRequest),
    // "handler POST /api/chat/message", not the chain of plugin names it would be.
    lifecycleHook: (span, { hookName, request }) =>
      span.updateName(`${hookName} ${request.method} ${request.routeOptions.url ?? "unmatched"}`),
  });
  instrumentation.setTracerProvider(provider);
  const fastifyPlugin = instrumentation.plugin();

  const startSpan = (name: string, attributes: Record<string, string | number | boolean>) => {
    const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, context.active());
    const active: ActiveSpan = {
      run: (fn) => context.with(trace.setSpan(context.active(), span), fn),
      event: (eventName) => span.addEvent(eventName),
      end(error) {
        if (error !== undefined) {
          const message = scrubSpanText(error instanceof Error ? error.message : String(error));
          span.recordException({
            name: error instanceof Error ? error.name : "Error",
            message,
          });
          span.setStatus({ code: SpanStatusCode.ERROR, message });
        }
        span.end();
      },
    };
    return active;
  };

  return {
    startSpan,
    plugin: fastifyPlugin as unknown as FastifyPluginAsync,
    async shutdown() {
      instrumentation.disable();
      await provider.shutdown();
      // The next app in this process (tests) registers its own provider.
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
