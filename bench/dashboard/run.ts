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
import type pg from "pg";
import { adminGet } from "../lib/app-api.ts";
import { percentile, printLatencies, roundMs, timeRoutes } from "../lib/latency.ts";
import {
  appWithBareRoute,
  benchDatabase,
  log,
  numberUsers,
  seedCalls,
  seedStep,
  withClient,
} from "../lib/seeded-postgres.ts";

const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 10_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? Math.round(USERS / 2));
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? Math.round(USERS / 10));
const RUNS = Number(process.env.BENCH_RUNS ?? 50);

async function counts(client: pg.Client) {
  const { rows } = await client.query(
    `select (select count(*) from users where role = 'user')::int as users,
            (select count(*) from payments)::int as payments`,
  );
  return rows[0] as { users: number; payments: number };
}

/** The seed, in the database: users over two years, payments, calls, subscriptions. */
async function seed(client: pg.Client) {
  const step = seedStep(client);
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
  await numberUsers(step);
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
  await seedCalls(step, CALLS, USERS);
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

const database = await benchDatabase("twinline_bench_dashboard");
const app = await appWithBareRoute(database.url);
try {
  await withClient(database.url, async (client) => {
    const have = await counts(client);
    if (have.users !== USERS || have.payments !== PAYMENTS) {
      log(`seeding (found ${have.users} users, ${have.payments} payments)`);
      await seed(client);
    } else log(`reusing the seed of ${database.name}`);
  });

  const get = await adminGet(app);
  const rows = await timeRoutes(
    [
      ["bare GET /bench/bare", get("/bench/bare")],
      ["GET /api/admin/dashboard/metrics", get("/api/admin/dashboard/metrics")],
      ["GET /api/admin/dashboard/series?days=90", get("/api/admin/dashboard/series?days=90")],
    ],
    RUNS,
  );
  console.log(
    `\n${USERS} users, ${PAYMENTS} payments, ${CALLS} calls, ${SUBSCRIPTIONS} subscriptions; ${RUNS} sequential calls each (app.inject, in process)`,
  );
  printLatencies(rows);
  const bare = percentile(rows[0]?.times ?? [], 50);
  const metrics = percentile(rows[1]?.times ?? [], 50);
  console.log(
    `metrics p50 = ${roundMs(metrics)} ms = ${roundMs(metrics / bare)}× the bare route's p50 (goal: under 100 ms)`,
  );
} finally {
  await app.close();
}
