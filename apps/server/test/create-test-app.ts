import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import pg from "pg";
import { afterAll, inject } from "vitest";
import { type BuildAppOptions, buildApp } from "../src/app.ts";
import { type Config, loadConfig } from "../src/config.ts";
import { type TestDatabaseKind, testDatabaseKind } from "./database-kind.ts";

export { type TestDatabaseKind, testDatabaseKind };

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  kind: TestDatabaseKind;
  /** The app's own temporary DATA_DIR (removed by close unless another app shares it). */
  dataDir: string;
  /** The PostgreSQL database of this app (postgres runs only). */
  databaseUrl: string | undefined;
  /** Closes the app; the temporary folder and database go when the test file ends. */
  close(): Promise<void>;
}

export interface TestAppOptions {
  /**
   * Reuse the DATA_DIR and database of an earlier test app: a second instance of the same
   * deployment (PostgreSQL), or a restart once the first is closed (PGlite allows one process).
   */
  sameDatabaseAs?: TestApp;
  /** Extra environment, as a deployment would set it (PUBLIC_URL, LOG_LEVEL...). */
  env?: NodeJS.ProcessEnv;
  /** A fake web build; by default a folder that does not exist (no web build). */
  webDistDir?: string;
  /** Probe routes, registered like buildApp's `register` option. */
  register?: FastifyPluginAsync;
  /** The sign-in rate limit; tests get a high one unless they test the limit itself. */
  authRateLimit?: BuildAppOptions["authRateLimit"];
  /** Failed logins per account; tests get a high one unless they test the limit itself. */
  loginAccountLimit?: BuildAppOptions["loginAccountLimit"];
  /** Prefix of the limits' Redis keys (a test on a shared Redis gives each run its own). */
  rateLimitKeyPrefix?: string;
  /** A Google verifier that checks the test's own tokens (test/google.ts). */
  googleVerifier?: BuildAppOptions["googleVerifier"];
  /** How long a chat reply may take (default 60 s). */
  chatProviderTimeoutMs?: number;
  /** Logger options (a test that reads the log passes `{ level, stream }`); default silent. */
  logger?: BuildAppOptions["logger"];
  /** Lower upload limits. */
  uploadLimits?: BuildAppOptions["uploadLimits"];
  /** The voice call's clock (test/manual-clock.ts). */
  voiceClock?: BuildAppOptions["voiceClock"];
  /** The clock of sittings and AI notices (test/manual-clock.ts). */
  noticeClock?: BuildAppOptions["noticeClock"];
  /** The billing clock (sandbox, checkout and renewal sweeps): test/manual-clock.ts. */
  billingClock?: BuildAppOptions["billingClock"];
  /**
   * False: the billing sweeps run only when the test calls them (`billing.renewals.sweep()`,
   * `billing.sweep.sweep()`), for a test that moves its clock over days.
   */
  billingSweeps?: BuildAppOptions["billingSweeps"];
  /** False: on-demand jobs run only when the test calls `app.jobs.runDue(name)`. */
  jobWorkers?: BuildAppOptions["jobWorkers"];
  /** The contact form's limits (default: as deployed). */
  contactLimits?: BuildAppOptions["contactLimits"];
  /** The data exports' clock (test/manual-clock.ts). */
  privacyClock?: BuildAppOptions["privacyClock"];
}

const temporaryDirectories: string[] = [];
const createdDatabases: string[] = [];

/** Builds the real app on a fresh database of the project's kind, ready for `app.inject`. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const kind = testDatabaseKind();
  const dataDir = options.sameDatabaseAs?.dataDir ?? makeDataDir(kind);
  const databaseUrl =
    kind === "postgres"
      ? (options.sameDatabaseAs?.databaseUrl ?? (await createDatabase()))
      : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });
  const app = await buildApp({
    config,
    logger: options.logger ?? false,
    ...(options.uploadLimits ? { uploadLimits: options.uploadLimits } : {}),
    webDistDir: options.webDistDir ?? join(dataDir, "no-web-build"),
    ...(options.register ? { register: options.register } : {}),
    authRateLimit: options.authRateLimit ?? { max: 10_000 },
    loginAccountLimit: options.loginAccountLimit ?? { max: 10_000 },
    ...(options.rateLimitKeyPrefix ? { rateLimitKeyPrefix: options.rateLimitKeyPrefix } : {}),
    ...(options.googleVerifier ? { googleVerifier: options.googleVerifier } : {}),
    ...(options.voiceClock ? { voiceClock: options.voiceClock } : {}),
    ...(options.noticeClock ? { noticeClock: options.noticeClock } : {}),
    ...(options.billingClock ? { billingClock: options.billingClock } : {}),
    ...(options.billingSweeps === false ? { billingSweeps: false } : {}),
    ...(options.jobWorkers === false ? { jobWorkers: false } : {}),
    ...(options.contactLimits ? { contactLimits: options.contactLimits } : {}),
    ...(options.privacyClock ? { privacyClock: options.privacyClock } : {}),
    ...(options.chatProviderTimeoutMs
      ? { chatProviderTimeoutMs: options.chatProviderTimeoutMs }
      : {}),
  });
  return { app, config, kind, dataDir, databaseUrl, close: () => app.close() };
}

function makeDataDir(kind: TestDatabaseKind): string {
  const dataDir = mkdtempSync(join(tmpdir(), "twinline-test-"));
  temporaryDirectories.push(dataDir);
  if (kind === "pglite") {
    cpSync(inject("pgliteTemplate"), join(dataDir, "pglite"), { recursive: true });
  }
  return dataDir;
}

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is not set, yet the postgres project runs");
  return url;
}

/** A new, empty database on the test server: test files run in parallel without meeting. */
async function createDatabase(): Promise<string> {
  const name = `twinline_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  createdDatabases.push(name);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  for (const directory of temporaryDirectories.splice(0)) {
    rmSync(directory, { recursive: true, force: true });
  }
  if (createdDatabases.length === 0) return;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    for (const name of createdDatabases.splice(0)) {
      // FORCE: a listener a failed test left open must not keep the database alive.
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
});
