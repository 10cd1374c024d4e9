// bench/analytics: GET /api/admin/user-analytics (the default page, a search, a sort) on a
// PostgreSQL seeded with BENCH_USERS users (default 100 000), BENCH_MESSAGES chat messages
// (1 000 000) and BENCH_CALLS calls (100 000), beside a bare route of the same app in the same
// run (issue 20's goal: p95 under 100 ms), and the same page counted from the tables as the app
// did before its figures were kept (decision 0048), for the baseline.
//
// The seed is INSERT … SELECT over generate_series, in the database itself, with triggers off
// (session_replication_role = replica) and the kept figures counted once afterwards by the
// migration's own backfill (users_figures_recount, user_analytics_totals_recount); it is kept in BENCH_DB (default
// twinline_bench_analytics) between runs and only made again with BENCH_RESEED=1 or when its row
// counts differ. Requests are sequential (latency): BENCH_RUNS of each (default 50), after 5
// warm-up calls.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:analytics -w @twinline/bench
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config.ts";

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const BASELINE_RUNS = Number(process.env.BENCH_BASELINE_RUNS ?? 5);
const DB = process.env.BENCH_DB ?? "twinline_bench_analytics";
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
            (select count(*) from chat_messages)::int as messages,
            (select count(*) from voice_calls)::int as calls`,
  );
  return rows[0] as { users: number; messages: number; calls: number };
}

/**
 * Users over two years; each with one conversation; messages in sessions (a few seconds to an
 * hour apart, so some gaps count and some do not), user and persona alternating; calls; and a
 * credit spent per user message.
 */
async function seed(client: pg.Client) {
  const step = async (label: string, statement: string) => {
    const started = performance.now();
    await client.query(statement);
    log(`${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  };
  await step(
    "cleared",
    "truncate users, chat_messages, conversations, voice_calls, credit_ledger, dashboard_days cascade",
  );
  await client.query("set session_replication_role = replica");
  await client.query("set maintenance_work_mem = '512MB'");
  await step(
    `${USERS} users`,
    `insert into users (name, email, role, credits, created_at, last_login)
     select 'Bench User ' || g, 'bench' || g || '@example.com', 'user', 100,
            now() - random() * interval '730 days', now() - random() * interval '30 days'
     from generate_series(1, ${USERS}) g`,
  );
  await step(
    "user index",
    `create temp table bench_ids as select id, row_number() over () as rn from users where role = 'user'`,
  );
  await step("user index key", "create index on bench_ids (rn)");
  await step(
    "conversations",
    `insert into conversations (user_id, title, started_at, last_message_at, message_count)
     select id, 'Bench', now() - interval '730 days', now(), ${Math.round(MESSAGES / USERS)} from bench_ids`,
  );
  await step(
    `${MESSAGES} messages`,
    `insert into chat_messages (conversation_id, user_id, sender, content, created_at)
     select c.id, b.id, (case when g % 2 = 0 then 'user' else 'ai' end)::chat_sender, 'Bench message',
            now() - (g / ${USERS}) * interval '7 minutes' - (g / ${USERS} / 4) * interval '1 day'
              - (g % ${USERS}) * interval '1 second'
     from generate_series(1, ${MESSAGES}) g
     join bench_ids b on b.rn = 1 + (g % ${USERS})
     join conversations c on c.user_id = b.id`,
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
    "credits spent",
    `insert into credit_ledger (user_id, kind, amount, balance_after, source_key, created_at)
     select b.id, 'call_minute', -(1 + g % 9), 100, 'bench:' || g, now() - g * interval '1 minute'
     from generate_series(1, ${USERS * 2}) g join bench_ids b on b.rn = 1 + (g % ${USERS})`,
  );
  await step(
    "kept figures (the migration's backfill)",
    "select users_figures_recount(null), user_analytics_totals_recount()",
  );
  await client.query("set session_replication_role = origin");
  await step("vacuum analyze", "vacuum analyze");
}

/** The default page as the app computed it before decision 0048: every message and call. */
const FROM_THE_TABLES = `
  with gaps as (
    select user_id, sender, created_at,
      extract(epoch from created_at - lag(created_at) over (partition by user_id order by created_at, seq)) as gap
    from chat_messages
  ),
  chat as (
    select user_id, coalesce(sum(gap) filter (where gap <= 1800), 0)
        + 30 * count(*) filter (where sender = 'user') as seconds, max(created_at) as last_at
    from gaps group by user_id
  ),
  calls as (
    select user_id, sum(duration_seconds) as seconds, max(coalesce(ended_at, started_at)) as last_at
    from voice_calls group by user_id
  ),
  active as (select user_id from chat union select user_id from calls),
  spent as (select user_id, sum(-amount) as credits from credit_ledger where amount < 0 group by user_id),
  interactions as (
    select u.id, u.name, u.email, round(coalesce(c.seconds, 0) + coalesce(v.seconds, 0))::int as interaction_time,
      coalesce(s.credits, 0)::int as credits_used, greatest(c.last_at, v.last_at) as last_interaction
    from active a join users u on u.id = a.user_id and u.role = 'user'
    left join chat c on c.user_id = a.user_id left join calls v on v.user_id = a.user_id
    left join spent s on s.user_id = a.user_id
  ),
  totals as (select count(*) as total_users, sum(interaction_time) as total_time from interactions),
  page as (select * from interactions order by last_interaction desc nulls last, id desc limit 10)
  select * from totals cross join page`;

async function timed(
  run: () => Promise<{ statusCode: number }>,
  runs = RUNS,
  warmups = 5,
): Promise<number[]> {
  for (let i = 0; i < warmups; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const response = await run();
    times.push(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
  }
  return times;
}

await ensureDatabase();
const dataDir = mkdtempSync(join(tmpdir(), "twinline-bench-analytics-"));
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
  let baseline: number[] = [];
  try {
    const have = await counts(client);
    if (have.users !== USERS || have.messages !== MESSAGES || have.calls !== CALLS) {
      log(`seeding (found ${have.users} users, ${have.messages} messages, ${have.calls} calls)`);
      await seed(client);
    } else log(`reusing the seed of ${DB}`);
    baseline = await timed(
      async () => {
        await client.query(FROM_THE_TABLES);
        return { statusCode: 200 };
      },
      BASELINE_RUNS,
      1,
    );
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
      route: "default page (lastInteraction desc)",
      times: await timed(get("/api/admin/user-analytics")),
    },
    {
      route: "search ?search=bench4242 (e-mail)",
      times: await timed(get("/api/admin/user-analytics?search=bench4242")),
    },
    {
      route: "search ?search=user 4242 (name)",
      times: await timed(get("/api/admin/user-analytics?search=user%204242")),
    },
    {
      route: "sort ?sortBy=interactionTime",
      times: await timed(get("/api/admin/user-analytics?sortBy=interactionTime&sortOrder=-1")),
    },
    {
      route: "sort ?sortBy=name, page 50",
      times: await timed(get("/api/admin/user-analytics?sortBy=name&sortOrder=1&page=50")),
    },
    { route: `baseline: page from the tables (SQL only, ${BASELINE_RUNS} runs)`, times: baseline },
  ];
  console.log(
    `\n${USERS} users, ${MESSAGES} messages, ${CALLS} calls; ${RUNS} sequential calls each (app.inject, in process)`,
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
  const worst = Math.max(...rows.slice(1, -1).map((row) => percentile(row.times, 95)));
  console.log(
    `worst analytics p95 = ${round(worst)} ms = ${round(worst / bare)}× the bare route's p50 (goal: under 100 ms)`,
  );
} finally {
  await app.close();
}
