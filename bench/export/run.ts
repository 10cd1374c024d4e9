// bench/export: "Download my data" for a fan with many messages (issue 26 item 1: built in the
// background, it must not block the server for a fan with 100,000 messages).
// One fan with BENCH_EXPORT_MESSAGES (100,000) messages (one generate_series statement), then:
// - the export: asked as the fan asks it (app.dataExports.request), timed until the worker has
//   written the ZIP (every kind, README included), while GET /api/health is asked every 20 ms and
//   the event loop's delay is recorded (perf_hooks.monitorEventLoopDelay): how long the server's
//   other requests wait while an export is built;
// - the baseline, in the same run: the same messages read by one plain SELECT, JSON.stringify'd
//   whole and zipped in one go (fflate zipSync): the floor of the work, done as fast as it can be
//   done when nothing else matters (and blocking the server the whole time).
// Figures: ms per message, peak RSS (sampled every 10 ms, and read right after each step of the
// baseline), the health check's p50/p99/max and the event loop delay's p99/max, and the same
// probes for 5 s of an idle server (what a busy machine alone costs them). The ZIP is opened
// and its messages counted: a run that exports fewer messages than it seeded fails.
// PGlite by default; DATABASE_URL runs it on PostgreSQL (the fan is deleted at the end).
import { writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { buffer } from "node:stream/consumers";
import { sql } from "drizzle-orm";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { buildApp } from "../../apps/server/src/app.ts";
import { rawRows } from "../../apps/server/src/db/raw-rows.ts";
import { benchAppConfig, browserCsrf, signUpBenchUser } from "../lib/app-api.ts";
import { roundMs as ms, percentile } from "../lib/latency.ts";

const MESSAGES = Number(process.env.BENCH_EXPORT_MESSAGES ?? 100_000);
const HEALTH_EVERY_MS = 20;
const MB = 1024 * 1024;

const { dataDir, config } = benchAppConfig("bench-export");
const app = await buildApp({
  config,
  logger: false,
  authRateLimit: { max: 100_000 },
});

/** Samples the RSS every 10 ms until stopped; `mark()` also reads it between two steps. */
function rssPeak() {
  let peak = process.memoryUsage.rss();
  const mark = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const timer = setInterval(mark, 10);
  return {
    mark,
    stop() {
      clearInterval(timer);
      mark();
      return peak;
    },
  };
}

/**
 * GET /api/health every HEALTH_EVERY_MS until stopped: each answer's latency, and how many were
 * not 200 (its database ping gives up after 3 s: the instance would be taken out of rotation).
 */
function healthProbe() {
  const times: number[] = [];
  let failed = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const response = await app.inject({ method: "GET", url: "/api/health" });
      if (response.statusCode !== 200) failed++;
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { times, failed };
    },
  };
}

/** Runs `work` while the RSS, the event loop's delay and the health check are measured. */
async function measured<T>(work: (mark: () => void) => Promise<T>) {
  global.gc?.();
  const rssBefore = process.memoryUsage.rss();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const rss = rssPeak();
  const health = healthProbe();
  loop.enable();
  const started = performance.now();
  const result = await work(rss.mark);
  const elapsed = performance.now() - started;
  loop.disable();
  const { times: healthTimes, failed } = await health.stop();
  return {
    result,
    row: {
      "total s": Number((elapsed / 1000).toFixed(2)),
      "ms / message": Number((elapsed / MESSAGES).toFixed(4)),
      "peak RSS MB": Math.round(rss.stop() / MB),
      "RSS before MB": Math.round(rssBefore / MB),
      "health n": healthTimes.length,
      "health p50 ms": ms(percentile(healthTimes, 50)),
      "health p99 ms": ms(percentile(healthTimes, 99)),
      "health max ms": ms(Math.max(...healthTimes)),
      "health 503": failed,
      "loop delay p99 ms": ms(loop.percentile(99) / 1e6),
      "loop delay max ms": ms(loop.max / 1e6),
    },
  };
}

try {
  const { headers } = await browserCsrf(app);
  const fan = await signUpBenchUser(app, headers, {
    name: "Exporting Fan",
    email: `export-${Date.now()}@example.com`,
  });
  const send = await app.inject({
    method: "POST",
    url: "/api/chat/message",
    headers: { ...headers, authorization: `Bearer ${fan.token}` },
    payload: { message: "Hello! This is where it all began." },
  });
  if (send.statusCode !== 200) throw new Error(`send: ${send.statusCode} ${send.body}`);
  const conversationId = send.json().data.conversationId as string;

  const seeding = performance.now();
  // One statement, the per-row triggers off (each message would update the fan's kept figures,
  // 100,000 updates of one row), then those figures counted once, as migration 0016 does.
  await app.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into chat_messages (conversation_id, user_id, sender, content, created_at)
      select ${conversationId}, ${fan.id},
        (case when n % 2 = 0 then 'user' else 'ai' end)::chat_sender,
        format('I told you about the %s and the %s on day %s; it was %s, %s.',
          (array['lake','garden','concert','train','market','library','beach'])[1 + n % 7],
          (array['rain','music','coffee','friends','dog','cake'])[1 + n % 6], n,
          (array['lovely','long','strange','quiet','perfect'])[1 + n % 5],
          (array['really','honestly','I think','as always'])[1 + n % 4]),
        now() - interval '1 minute' * (${MESSAGES} - n)
      from generate_series(1, ${MESSAGES}::int) n`);
  });
  await app.database.db.execute(sql`select users_figures_recount(array[${fan.id}]::uuid[])`);
  await app.database.db.execute(
    sql`update conversations set message_count = message_count + ${MESSAGES} where id = ${conversationId}`,
  );
  await app.database.db.execute(sql`analyze chat_messages`);
  const seedSeconds = (performance.now() - seeding) / 1000;
  const [{ total = 0 } = {}] = await rawRows<{ total: number }>(
    app.database.db,
    sql`select count(*)::int as total from chat_messages where user_id = ${fan.id}`,
  );

  // The machine's own noise: the same probes for 5 s while the server does nothing else.
  const idle = await measured(() => new Promise((resolve) => setTimeout(resolve, 5_000)));

  // The export, as the fan asks for it, built by the app's worker.
  const exported = await measured(async () => {
    const asked = await app.dataExports.request(fan.id, null);
    await app.dataExports.settled();
    return asked.data._id;
  });
  const [row] = await rawRows<{ status: string; file_name: string; size_bytes: number }>(
    app.database.db,
    sql`select status, file_name, size_bytes from data_exports where id = ${exported.result}`,
  );
  if (row?.status !== "ready") throw new Error(`export ${row?.status ?? "missing"}`);
  const zip = await buffer(app.uploads.privateFiles.read(row.file_name));
  const messagesJson = unzipSync(new Uint8Array(zip), {
    filter: (file) => file.name === "messages.json",
  })["messages.json"];
  const count = (JSON.parse(strFromU8(messagesJson ?? new Uint8Array())) as unknown[]).length;

  // The baseline: the same messages, one SELECT, one JSON.stringify, one zipSync.
  const baselinePath = join(dataDir, "baseline.zip");
  const baseline = await measured(async (mark) => {
    const rows = await rawRows<Record<string, unknown>>(
      app.database.db,
      sql`select id, conversation_id as "conversationId", sender, product_kind as "productKind",
            content, created_at as "createdAt", call_id as "callId",
            reply_failed as "replyFailed", forgotten
          from chat_messages where user_id = ${fan.id} order by created_at, seq`,
    );
    mark();
    const text = JSON.stringify(rows);
    mark();
    const zipped = zipSync({ "messages.json": [strToU8(text), { level: 6 }] });
    mark();
    await writeFile(baselinePath, zipped);
    return { rows: rows.length, size: zipped.length };
  });

  console.log(
    `\nData export of one fan with ${total.toLocaleString("en")} messages (seeded ${MESSAGES.toLocaleString("en")} in ` +
      `${seedSeconds.toFixed(1)} s) on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}, ` +
      `load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(" ")}`,
  );
  console.table([
    { run: "idle server (the machine's noise)", ...idle.row, "total s": 5, "ms / message": 0 },
    {
      run: "export (app worker, all kinds)",
      ...exported.row,
      "ZIP KB": Math.round(zip.length / 1024),
    },
    {
      run: "baseline (1 SELECT, stringify, zipSync)",
      ...baseline.row,
      "ZIP KB": Math.round(baseline.result.size / 1024),
    },
  ]);
  const ratio = exported.row["total s"] / baseline.row["total s"];
  console.log(`export / baseline time: ${ratio.toFixed(2)}x; messages in the ZIP: ${count}`);
  if (count !== total || baseline.result.rows !== total) {
    process.exitCode = 1;
    console.log(`the ZIP holds ${count} of ${total} messages: the figures above measure nothing`);
  }
  if (process.env.DATABASE_URL) await app.accountDeletion.delete(fan.id, null);
} finally {
  await app.close();
}
