import autocannon from "autocannon";

export interface Figures {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Per-request setup (autocannon's requests), e.g. a user of its own per connection. */
  requests?: autocannon.Request[];
}

/** One autocannon run against a URL, reduced to the figures the reports compare. */
export async function measure(name: string, url: string, options: LoadOptions): Promise<Figures> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    method: options.method ?? "GET",
    headers: options.headers,
    body: options.body,
    ...(options.requests ? { requests: options.requests } : {}),
  });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export function printComparison(subject: Figures, baseline: Figures) {
  const rows = [baseline, subject].map((f) => ({
    route: f.name,
    "req/s": Math.round(f.requestsPerSecond),
    "p50 ms": f.p50,
    "p99 ms": f.p99,
    "errors+non2xx": f.errors,
  }));
  console.table(rows);
  const ratio = subject.requestsPerSecond / baseline.requestsPerSecond;
  console.log(
    `${subject.name} throughput = ${(ratio * 100).toFixed(1)}% of ${baseline.name} (same run, same machine)`,
  );
  return ratio;
}
