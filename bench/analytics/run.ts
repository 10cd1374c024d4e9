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
import type pg from "pg";
import { adminGet } from "../lib/app-api.ts";
import { percentile, printLatencies, roundMs, timeRoutes, timeSequential } from "../lib/latency.ts";
import {
  appWithBareRoute,
  benchDatabase,
  log,
  numberUsers,
  seedCalls,
  seedStep,
  withClient,
} from "../lib/seeded-postgres.ts";

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const BASELINE_RUNS = Number(process.env.BENCH_BASELINE_RUNS ?? 5);

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
  const step = seedStep(client);
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
  await numberUsers(step);
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
  await seedCalls(step, CALLS, USERS);
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

const database = await benchDatabase("twinline_bench_analytics");
const app = await appWithBareRoute(database.url);
try {
  const baseline = await withClient(database.url, async (client) => {
    const have = await counts(client);
    if (have.users !== USERS || have.messages !== MESSAGES || have.calls !== CALLS) {
      log(`seeding (found ${have.users} users, ${have.messages} messages, ${have.calls} calls)`);
      await seed(client);
    } else log(`reusing the seed of ${database.name}`);
    return timeSequential(
      async () => {
        await client.query(FROM_THE_TABLES);
        return { statusCode: 200 };
      },
      BASELINE_RUNS,
      1,
    );
  });

  const get = await adminGet(app);
  const rows = [
    ...(await timeRoutes(
      [
        ["bare GET /bench/bare", get("/bench/bare")],
        ["default page (lastInteraction desc)", get("/api/admin/user-analytics")],
        ["search ?search=bench4242 (e-mail)", get("/api/admin/user-analytics?search=bench4242")],
        ["search ?search=user 4242 (name)", get("/api/admin/user-analytics?search=user%204242")],
        [
          "sort ?sortBy=interactionTime",
          get("/api/admin/user-analytics?sortBy=interactionTime&sortOrder=-1"),
        ],
        [
          "sort ?sortBy=name, page 50",
          get("/api/admin/user-analytics?sortBy=name&sortOrder=1&page=50"),
        ],
      ],
      RUNS,
    )),
    { route: `baseline: page from the tables (SQL only, ${BASELINE_RUNS} runs)`, times: baseline },
  ];
  console.log(
    `\n${USERS} users, ${MESSAGES} messages, ${CALLS} calls; ${RUNS} sequential calls each (app.inject, in process)`,
  );
  printLatencies(rows);
  const bare = percentile(rows[0]?.times ?? [], 50);
  const worst = Math.max(...rows.slice(1, -1).map((row) => percentile(row.times, 95)));
  console.log(
    `worst analytics p95 = ${roundMs(worst)} ms = ${roundMs(worst / bare)}× the bare route's p50 (goal: under 100 ms)`,
  );
} finally {
  await app.close();
}
