import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { buildApp } from "../../apps/server/src/app.ts";
import { loadConfig } from "../../apps/server/src/config.ts";

// The large-seed benches (dashboard, analytics): a database of their own on DATABASE_URL's
// PostgreSQL, seeded in the database itself and kept between runs, and the app on it beside a
// bare route of the same app.

export const log = (message: string) =>
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

/**
 * The URL of database BENCH_DB (default `defaultName`) on DATABASE_URL's server, made when
 * missing and made anew with BENCH_RESEED=1.
 */
export async function benchDatabase(defaultName: string): Promise<{ name: string; url: string }> {
  const name = process.env.BENCH_DB ?? defaultName;
  const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (exists.rowCount === 0) await admin.query(`create database ${name}`);
    else if (process.env.BENCH_RESEED === "1") {
      await admin.query(`drop database ${name} with (force)`);
      await admin.query(`create database ${name}`);
    }
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** The app on `databaseUrl` (its migrations run as it opens), with GET /bench/bare beside it. */
export async function appWithBareRoute(databaseUrl: string) {
  const dataDir = mkdtempSync(join(tmpdir(), "twinline-bench-seeded-"));
  return buildApp({
    config: loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" }),
    logger: false,
    webDistDir: join(dataDir, "no-web"),
    register: async (instance) => {
      instance.get("/bench/bare", async () => ({ success: true, data: { value: 1 } }));
    },
  });
}

/** Runs `use` with a client of its own on `databaseUrl`, closed after. */
export async function withClient<T>(
  databaseUrl: string,
  use: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** A seed statement runner that logs how long each statement took. */
export function seedStep(client: pg.Client) {
  return async (label: string, statement: string) => {
    const started = performance.now();
    await client.query(statement);
    log(`${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  };
}

type SeedStep = ReturnType<typeof seedStep>;

/** Numbers the seeded users 1..n in bench_ids (a temp table of this session) for the joins. */
export async function numberUsers(step: SeedStep) {
  await step(
    "user index",
    `create temp table bench_ids as select id, row_number() over () as rn from users where role = 'user'`,
  );
  await step("user index key", "create index on bench_ids (rn)");
}

/**
 * `calls` ended calls over two years, 30 s to 15 min long, billed at 5 credits a started
 * minute, spread over the `users` numbered users.
 */
export async function seedCalls(step: SeedStep, calls: number, users: number) {
  await step(
    `${calls} calls`,
    `insert into voice_calls (user_id, started_at, ended_at, duration_seconds, minutes_charged,
                              credits_per_minute, credits_consumed, end_reason)
     select b.id, s.at, s.at + make_interval(secs => s.seconds), s.seconds, ceil(s.seconds / 60.0),
            5, 5 * ceil(s.seconds / 60.0), 'hangup'
     from (select g, now() - random() * interval '730 days' as at, (30 + g % 900) as seconds
           from generate_series(1, ${calls}) g) s
     join bench_ids b on b.rn = 1 + ((s.g * 7) % ${users})`,
  );
}
