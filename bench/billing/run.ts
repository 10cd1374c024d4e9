// bench/billing (issue 9, item 8).
// Phase 1 (webhooks): BENCH_DELIVERIES (1,000) signed Stripe deliveries, BENCH_SESSIONS (200)
// distinct checkout.session.completed events each replayed, shuffled, at BENCH_CONCURRENCY (50),
// against the app's POST /api/payments/webhook (verify, re-read the session from the local fake
// Stripe through the SDK, fulfil exactly once) and a bare Fastify route that only verifies the
// same signature. Throughput ratio, p50/p99, and the ledger's exactness (one purchase per
// session, no more).
// Phase 2 (admin lists): GET /api/admin/credit-transactions on BENCH_ROWS (1,000,000) seeded
// payments: p95 of the default page, a filtered page (status + date range) and a sorted page
// (amount ascending), BENCH_LIST_RUNS (100) each, beside a bare route of 10 rows. Goal < 50 ms.
import { fileURLToPath } from "node:url";
import { roundMs as ms, percentile } from "../lib/latency.ts";
import { spawnServers } from "../lib/spawn-servers.ts";

interface Setup {
  bare: string;
  app: string;
  adminToken: string;
  deliveries: Array<{ payload: string; header: string }>;
  creditsPerSession: number;
  kind: string;
}

const total = Number(process.env.BENCH_DELIVERIES ?? 1000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const listRuns = Number(process.env.BENCH_LIST_RUNS ?? 100);
const script = fileURLToPath(new URL("./servers.ts", import.meta.url));

/** Sends every delivery with `concurrency` in flight; answers throughput and latencies. */
async function deliverAll(url: string, order: Array<{ payload: string; header: string }>) {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < order.length) {
      const delivery = order[next++];
      if (!delivery) break;
      const t0 = performance.now();
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": delivery.header },
        body: delivery.payload,
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (response.status !== 200) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return {
    perSecond: order.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures,
  };
}

async function timeGets(url: string, headers: Record<string, string>, runs: number) {
  const times: number[] = [];
  let failures = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    times.push(performance.now() - t0);
    if (response.status !== 200) failures += 1;
  }
  return { p50: ms(percentile(times, 50)), p95: ms(percentile(times, 95)), failures };
}

const servers = await spawnServers<Setup>(script);
try {
  const setup = servers.urls;
  console.log(`database: ${setup.kind}; ${setup.deliveries.length} distinct events`);
  // Each distinct event replayed: total deliveries, shuffled (a fixed seed: repeatable).
  const order = Array.from(
    { length: total },
    (_, i) => setup.deliveries[i % setup.deliveries.length],
  ).filter((d): d is { payload: string; header: string } => d !== undefined);
  let seed = 42;
  for (let i = order.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j] as (typeof order)[number], order[i] as (typeof order)[number]];
  }

  const bare = await deliverAll(`${setup.bare}/bare`, order);
  const app = await deliverAll(`${setup.app}/api/payments/webhook`, order);
  console.table(
    [
      ["bare verify", bare],
      ["app webhook", app],
    ].map(([name, f]) => {
      const figures = f as typeof bare;
      return {
        route: name,
        "deliveries/s": Math.round(figures.perSecond),
        "p50 ms": ms(figures.p50),
        "p99 ms": ms(figures.p99),
        "non-200": figures.failures,
      };
    }),
  );
  console.log(
    `app webhook throughput = ${((app.perSecond / bare.perSecond) * 100).toFixed(1)}% of the bare verifying route (same run)`,
  );
  const ledger = (await (await fetch(`${setup.app}/bench/ledger`)).json()) as {
    entries: number;
    credits: number;
  };
  const expected = setup.deliveries.length * setup.creditsPerSession;
  console.log(
    `ledger: ${ledger.entries} purchases, ${ledger.credits} credits; expected ${setup.deliveries.length} and ${expected}: ${
      ledger.entries === setup.deliveries.length && ledger.credits === expected ? "EXACT" : "WRONG"
    }`,
  );

  const headers = { authorization: `Bearer ${setup.adminToken}` };
  const list = `${setup.app}/api/admin/credit-transactions`;
  const start = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);
  const rows = [
    ["bare 10 rows", await timeGets(`${setup.bare}/bare-list`, {}, listRuns)],
    ["default page", await timeGets(list, headers, listRuns)],
    [
      "filtered page",
      await timeGets(`${list}?status=failed&startDate=${start}`, headers, listRuns),
    ],
    ["sorted page", await timeGets(`${list}?sortBy=amount&sortOrder=1&page=3`, headers, listRuns)],
  ] as const;
  console.table(
    rows.map(([name, f]) => ({
      list: name,
      "p50 ms": f.p50,
      "p95 ms": f.p95,
      "non-200": f.failures,
    })),
  );
} finally {
  await servers.stop();
}
