/** At most one warning this often while trace exports keep failing (the first at once). */
export const EXPORT_WARNING_INTERVAL_MS = 5 * 60_000;

export type Warn = (fields: Record<string, unknown>, message: string) => void;

/**
 * Why an export failed, without anything it carried: the HTTP status (the receiver's answer is
 * left out: it may quote a header), or the network error's code. Never the message, which may
 * hold the endpoint with its credentials.
 */
export function exportFailureReason(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "number") return `HTTP ${code}`;
  if (typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
  if (error instanceof Error && /timeout/i.test(error.name + error.message)) return "timeout";
  return "export failed";
}

/**
 * Tells the log that spans could not reach OTEL_EXPORTER_OTLP_ENDPOINT: one warning at once,
 * then at most one per `intervalMs`, each counting the failed exports since the last one. The
 * endpoint is named by its origin alone (no credentials, path or query).
 */
export function exportFailureWarner(options: {
  endpoint: string;
  warn: Warn;
  now?: () => number;
  intervalMs?: number;
}): (error: unknown) => void {
  const now = options.now ?? Date.now;
  const intervalMs = options.intervalMs ?? EXPORT_WARNING_INTERVAL_MS;
  const endpoint = originOf(options.endpoint);
  let lastWarned: number | null = null;
  let failed = 0;
  return (error) => {
    failed += 1;
    const at = now();
    if (lastWarned !== null && at - lastWarned < intervalMs) return;
    lastWarned = at;
    options.warn(
      { endpoint, reason: exportFailureReason(error), failedExports: failed },
      "Traces could not be sent to the OTLP endpoint; spans are being dropped",
    );
    failed = 0;
  };
}

function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return "(unparsable endpoint)";
  }
}
