// bench/privacy: "Download my data" for a fan with BENCH_HISTORY (100,000) messages (issue 26).
// The export is built by the background worker while the same process answers requests: the
// figure is a light route's latency (GET /api/auth/config) and the event loop's delay during the
// build, next to the same measured idle in the same run (the baseline), and the heap's growth
// (the rows and the ZIP must never be whole in memory). Offline: no network.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config.ts";
import { browserCsrf, signUpBenchUser } from "../lib/app-api.ts";
import { roundMs as ms, percentile } from "../lib/latency.ts";

const HISTORY = Number(process.env.BENCH_HISTORY ?? 100_000);
const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), "twinline-bench-export-"));
const app = await buildApp({
  config: loadConfig({
    ...process.env,
    OPENAI_API_KEY: "",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
  }),
  logger: false,
  authRateLimit: { max: 100_000 },
});

/** Latencies of the light route, sent one after the other until `until` says stop. */
async function probe(until: () => boolean, minimum: number): Promise<number[]> {
  const times: number[] = [];
  while (times.length < minimum || !until()) {
    const started = performance.now();
    const response = await app.inject({ method: "GET", url: "/api/auth/config" });
    if (response.statusCode !== 200) throw new Error(`probe: ${response.statusCode}`);
    times.push(performance.now() - started);
  }
  return times;
}

function summary(times: number[], delay: ReturnType<typeof monitorEventLoopDelay>) {
  return {
    requests: times.length,
    p50: ms(percentile(times, 50)),
    p99: ms(percentile(times, 99)),
    max: ms(Math.max(...times)),
    loopDelayP99: ms(delay.percentile(99) / 1e6),
    loopDelayMax: ms(delay.max / 1e6),
  };
}

try {
  const { headers: base } = await browserCsrf(app);
  const { id: userId, token } = await signUpBenchUser(app, base, {
    name: "Export Fan",
    email: `export-${Date.now()}@example.com`,
  });
  const headers = { ...base, authorization: `Bearer ${token}` };
  const [conversation] = (
    (await app.database.db.execute(
      sql`insert into conversations (user_id, title) values (${userId}, 'Bench') returning id`,
    )) as unknown as { rows: { id: string }[] }
  ).rows;
  if (!conversation) throw new Error("no conversation");
  const BATCH = 4_000;
  const started = Date.now() - HISTORY * 60_000;
  for (let first = 0; first < HISTORY; first += BATCH) {
    const rows = [];
    for (let n = first; n < Math.min(HISTORY, first + BATCH); n++) {
      const content = `Message ${n}: I like talking about the weather, music and the sea, day ${n % 365}.`;
      rows.push(
        sql`(${conversation.id}, ${userId}, ${n % 2 === 0 ? "user" : "ai"}::chat_sender, ${content}, ${new Date(started + n * 60_000).toISOString()}::timestamptz)`,
      );
    }
    await app.database.db.execute(sql`
      insert into chat_messages (conversation_id, user_id, sender, content, created_at)
      values ${sql.join(rows, sql`, `)}`);
  }
  await app.database.db.execute(sql`analyze chat_messages`);

  // Warm-up, then the baseline: the same route with nothing in the background.
  await probe(() => true, 200);
  const idleDelay = monitorEventLoopDelay({ resolution: 10 });
  idleDelay.enable();
  const idle = await probe(() => true, 1000);
  idleDelay.disable();

  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const sampler = setInterval(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 20);
  const busyDelay = monitorEventLoopDelay({ resolution: 10 });
  busyDelay.enable();
  const buildStarted = performance.now();
  const asked = await app.inject({ method: "POST", url: "/api/users/data-export", headers });
  if (asked.statusCode !== 202) throw new Error(`ask: ${asked.statusCode}`);
  let done = false;
  const building = app.dataExports.settled().then(() => {
    done = true;
  });
  const busy = await probe(() => done, 50);
  await building;
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  busyDelay.disable();
  clearInterval(sampler);
  const latest = await app.dataExports.latest(userId);
  if (latest?.status !== "ready") throw new Error(`export: ${latest?.status}`);

  const idleFigures = summary(idle, idleDelay);
  const busyFigures = summary(busy, busyDelay);
  console.log(
    JSON.stringify(
      {
        messages: HISTORY,
        database: process.env.DATABASE_URL ? "postgres" : "pglite",
        buildSeconds: Number(buildSeconds.toFixed(1)),
        zipBytes: latest.sizeBytes,
        heapGrowthMB: Number(((heapPeak - heapBefore) / 2 ** 20).toFixed(1)),
        idle: idleFigures,
        duringExport: busyFigures,
        ratios: {
          p50: Number((busyFigures.p50 / idleFigures.p50).toFixed(2)),
          p99: Number((busyFigures.p99 / idleFigures.p99).toFixed(2)),
        },
      },
      null,
      2,
    ),
  );
} finally {
  await app.close();
}
