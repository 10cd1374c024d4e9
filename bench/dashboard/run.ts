// bench/dashboard: GET /api/admin/dashboard/metrics (and the series, the user overview) on a
// PostgreSQL seeded with BENCH_USERS users (default 1 000 000) and BENCH_PAYMENTS payments
// (default 10 000 000), beside a bare route of the same app in the same run (issue 11's goal:
// the metrics call under 100 ms).
//
// The seed is INSERT … SELECT over generate_series, in the database itself; it is kept in the
// database BENCH_DB (default twinline_bench_dashboard) between runs and only made again with
// BENCH_RESEED=1 or when its row counts differ. Requests are sequential (latency, not
// throughput): BENCH_RUNS of each (default 50), after 5 warm-up calls.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:dashboard -w @twinline/bench
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config.ts";

const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 10_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? Math.round(USERS / 2));
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? Math.round(USERS / 10));
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const DB = process.env.BENCH_DB ?? "twinline_bench_dashboard";
const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const dbUrl = new URL(serverUrl);
dbUrl.pathname = `/${DB}`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}
const round = (value: number) => Number(value.toFixed(2));
const log = (message: string) =>
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

async function ensureDatabase() {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = await admin.query("select 1 from pg_database where datname = $1", [DB]);
    if (exists.rowCount === 0) await admin.query(`create database ${DB}`);
    else if (process.env.BENCH_RESEED === "1") {
      await admin.query(`drop database ${DB} with (force)`);
      await admin.query(`create database ${DB}`);
    }
  } finally {
    await admin.end();
  }
}

async function counts(client: pg.Client) {
  const { rows } = await client.query(
    `select (select count(*) from users where role = 'user')::int as users,
            (select count(*) from payments)::int as payments`,
  );
  return rows[0] as { users: number; payments: number };
}

/** The seed, in the database: users over two years, payments, calls, subscriptions. */
async function seed(client: pg.Client) {
  const step = async (label: string, statement: string) => {
    const started = performance.now();
    await client.query(statement);
    log(`${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  };
  await step(
    "cleared",
    // The rollup has no foreign key to cascade from: it is emptied with the tables it counts.
    "truncate users, payments, voice_calls, user_subscriptions, subscription_plans, dashboard_days cascade",
  );
  await step(
    `${USERS} users`,
    `insert into users (name, email, role, credits, created_at)
     select 'Bench User ' || g, 'bench' || g || '@example.com', 'user', 100,
            now() - random() * interval '730 days'
     from generate_series(1, ${USERS}) g`,
  );
  await step(
    "user index",
    `create temp table bench_ids as select id, row_number() over () as rn from users where role = 'user'`,
  );
  await step("user index key", "create index on bench_ids (rn)");
  // Ten million rows go in far faster with the secondary indexes built once afterwards (a sort)
  // than kept row by row: the indexes are dropped and made again from their own definitions.
  const { rows: paymentIndexes } = await client.query<{ name: string; definition: string }>(
    `select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as definition
     from pg_index where indrelid = 'payments'::regclass and not indisprimary and not indisunique`,
  );
  for (const index of paymentIndexes) await client.query(`drop index ${index.name}`);
  await client.query("set maintenance_work_mem = '1GB'");
  await step(
    `${PAYMENTS} payments`,
    `insert into payments (kind, user_id, status, amount_minor, currency, credits, item_name,
                           provider, source_key, transaction_date)
     select (case when g % 5 = 0 then 'subscription' else 'credits' end)::payment_kind, b.id,
            (case when g % 20 = 0 then 'failed' when g % 33 = 0 then 'pending' else 'success' end)::payment_status,
            499 + (g % 50) * 100, (case when g % 25 = 0 then 'eur' else 'usd' end)::billing_currency,
            (case when g % 5 = 0 then 0 else 100 * (1 + g % 10) end), 'Bench item', 'sandbox',
            'bench:' || g, now() - random() * interval '730 days'
     from generate_series(1, ${PAYMENTS}) g join bench_ids b on b.rn = 1 + (g % ${USERS})`,
  );
  await step(
    `${paymentIndexes.length} payment indexes`,
    paymentIndexes.map((index) => `${index.definition};`).join("\n"),
  );
  await step(
    `${CALLS} calls`,
    `insert into voice_calls (user_id, started_at, ended_at, duration_seconds, minutes_charged,
                              credits_per_minute, credits_consumed, end_reason)
     select b.id, s.at, s.at + make_interval(secs => s.seconds), s.seconds, ceil(s.seconds / 60.0),
            5, 5 * ceil(s.seconds / 60.0), 'hangup'
     from (select g, now() - random() * interval '730 days' as at, (30 + g % 900) as seconds
           from generate_series(1, ${CALLS}) g) s
     join bench_ids b on b.rn = 1 + ((s.g * 7) % ${USERS})`,
  );
  await step(
    "plan",
    `insert into subscription_plans (name, price_minor) values ('Bench plan', 999)`,
  );
  await step(
    `${SUBSCRIPTIONS} subscriptions`,
    `insert into user_subscriptions (user_id, plan_id, provider, provider_subscription_id,
                                     price_minor, currency, status, cancel_at_period_end,
                                     current_period_start, current_period_end, created_at)
     select b.id, (select id from subscription_plans limit 1), 'sandbox', 'sub_bench_' || g, 999,
            'usd', (case when g % 4 = 0 then 'canceled' else 'active' end)::subscription_status,
            g % 3 = 0, now() - interval '10 days', now() + (g % 40 - 10) * interval '1 day',
            now() - random() * interval '300 days'
     from generate_series(1, ${SUBSCRIPTIONS}) g join bench_ids b on b.rn = 1 + ((g * 13) % ${USERS})`,
  );
  await step("analyze", "analyze");
}

async function timed(run: () => Promise<{ statusCode: number }>): Promise<number[]> {
  for (let i = 0; i < 5; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const response = await run();
    times.push(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
  }
  return times;
}

await ensureDatabase();
const dataDir = mkdtempSync(join(tmpdir(), "twinline-bench-dashboard-"));
const app = await buildApp({
  config: loadConfig({ DATA_DIR: dataDir, DATABASE_URL: dbUrl.toString(), LOG_LEVEL: "silent" }),
  logger: false,
  webDistDir: join(dataDir, "no-web"),
  register: async (instance) => {
    instance.get("/bench/bare", async () => ({ success: true, data: { value: 1 } }));
  },
});
try {
  const client = new pg.Client({ connectionString: dbUrl.toString() });
  await client.connect();
  try {
    const have = await counts(client);
    if (have.users !== USERS || have.payments !== PAYMENTS) {
      log(`seeding (found ${have.users} users, ${have.payments} payments)`);
      await seed(client);
    } else log(`reusing the seed of ${DB}`);
  } finally {
    await client.end();
  }

  const email = "bench-admin@example.com";
  const password = "bench admin password";
  await app.auth.syncAdmin({ email, password });
  const csrf = await app.inject({ method: "GET", url: "/api/csrf-token" });
  const cookie = csrf.cookies.find((c) => c.name === "_csrf")?.value ?? "";
  const login = await app.inject({
    method: "POST",
    url: "/api/admin/login",
    headers: { "csrf-token": csrf.json().csrfToken },
    cookies: { _csrf: cookie },
    payload: { email, password },
  });
  const token = login.json().token as string;
  const auth = { authorization: `Bearer ${token}` };
  const get = (url: string) => () => app.inject({ method: "GET", url, headers: auth });

  const rows = [
    { route: "bare GET /bench/bare", times: await timed(get("/bench/bare")) },
    {
      route: "GET /api/admin/dashboard/metrics",
      times: await timed(get("/api/admin/dashboard/metrics")),
    },
    {
      route: "GET /api/admin/dashboard/series?days=90",
      times: await timed(get("/api/admin/dashboard/series?days=90")),
    },
  ];
  console.log(
    `\n${USERS} users, ${PAYMENTS} payments, ${CALLS} calls, ${SUBSCRIPTIONS} subscriptions; ${RUNS} sequential calls each (app.inject, in process)`,
  );
  console.table(
    rows.map(({ route, times }) => ({
      route,
      "p50 ms": round(percentile(times, 50)),
      "p95 ms": round(percentile(times, 95)),
      "max ms": round(Math.max(...times)),
    })),
  );
  const bare = percentile(rows[0]?.times ?? [], 50);
  const metrics = percentile(rows[1]?.times ?? [], 50);
  console.log(
    `metrics p50 = ${round(metrics)} ms = ${round(metrics / bare)}× the bare route's p50 (goal: under 100 ms)`,
  );
} finally {
  await app.close();
}
