import { fileURLToPath } from "node:url";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyPluginAsync,
  LogController,
} from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { runScheduledBackup } from "./backups/schedule.ts";
import { type Config, ConfigError, configuredSecrets } from "./config.ts";
import { type DatabaseConnection, openDatabase } from "./db/client.ts";
import { applyMigrations } from "./db/migrate.ts";
import { traceTransactions } from "./db/traced-transactions.ts";
import { type Clock, systemClock } from "./lib/clock.ts";
import { rememberSecret } from "./lib/secret-values.ts";
import {
  LOG_HOOKS,
  LOG_SERIALIZERS,
  loggedUrl,
  loggerOptions,
  REDACT_PATHS,
  REQUEST_ID_HEADER,
  requestIdFor,
} from "./logging.ts";
import { adminModule } from "./modules/admin/plugin.ts";
import { auditLogRoutesModule, auditModule } from "./modules/audit/plugin.ts";
import type { GoogleTokenVerifier } from "./modules/auth/google.ts";
import { accountsModule } from "./modules/auth/plugin.ts";
import { billingModule } from "./modules/billing/plugin.ts";
import { chatModule } from "./modules/chat/plugin.ts";
import { dashboardsModule } from "./modules/dashboards/plugin.ts";
import type { ContactLimits } from "./modules/fan-mail/contact-routes.ts";
import { fanMailModule } from "./modules/fan-mail/plugin.ts";
import { healthRoutes } from "./modules/health/routes.ts";
import { jobsModule } from "./modules/jobs/plugin.ts";
import { memoryModule } from "./modules/memory/plugin.ts";
import { operatorModule, type UploadLimitOverrides } from "./modules/operator.ts";
import { privacyModule } from "./modules/privacy/plugin.ts";
import { pushModule } from "./modules/push/plugin.ts";
import { settingsModule } from "./modules/settings/plugin.ts";
import { trialModule } from "./modules/trial/plugin.ts";
import { voiceModule } from "./modules/voice/plugin.ts";
import { openObservability } from "./observability/observability.ts";
import { observabilityPlugin } from "./observability/plugin.ts";
import { csrfPlugin } from "./plugins/csrf.ts";
import { errorsPlugin } from "./plugins/errors.ts";
import { jobsPlugin } from "./plugins/jobs.ts";
import { mailPlugin } from "./plugins/mail.ts";
import { openapiPlugin } from "./plugins/openapi.ts";
import {
  DEFAULT_AUTH_RATE_LIMIT,
  DEFAULT_LOGIN_ACCOUNT_LIMIT,
  type RateLimitSettings,
  rateLimitPlugin,
} from "./plugins/rate-limit.ts";
import { securityHeadersPlugin } from "./plugins/security-headers.ts";
import { registerWebApp, type WebFallback } from "./plugins/static.ts";
import { uploadsPlugin } from "./plugins/uploads.ts";
import { providersPlugin } from "./providers/plugin.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The open database (PGlite or PostgreSQL), closed with the app. */
    database: DatabaseConnection;
  }
}

export interface BuildAppOptions {
  config: Config;
  /**
   * Logging: omitted, pino as the config says (LOG_LEVEL); false, silent; an object, Fastify
   * logger options (for example `{ level: "debug" }`).
   */
  logger?: boolean | object;
  /** The web build to serve; defaults to apps/web/dist. Tests point it at a fake build. */
  webDistDir?: string;
  /**
   * Registered after the app's own routes, with every hook and the error handler in force.
   * Tests add probe routes with it (a POST to check CSRF, a route that throws).
   */
  register?: FastifyPluginAsync;
  /** The sign-in family's rate limit (default 10 per minute per IP and route). */
  authRateLimit?: Partial<RateLimitSettings>;
  /** Login attempts per account (strangers together) and per trusted device (10 per 15 min). */
  loginAccountLimit?: Partial<RateLimitSettings>;
  /** Prefix of the limits' Redis keys (tests sharing one Redis keep their counters apart). */
  rateLimitKeyPrefix?: string;
  /** Replaces the Google ID token verifier (tests sign their own tokens; no network). */
  googleVerifier?: GoogleTokenVerifier;
  /** How long a chat reply may take before it fails with 502 (default 60 s). */
  chatProviderTimeoutMs?: number;
  /**
   * The database, already opening (main.ts starts it before it loads the app's modules, so the
   * embedded database's thread starts its engine meanwhile); default, opened here. Its
   * background errors go where `onBackgroundError` was pointed by whoever opened it.
   */
  database?: Promise<DatabaseConnection>;
  /** Lower upload limits (tests check the limits without sending 50 or 100 MB). */
  uploadLimits?: UploadLimitOverrides;
  /** The voice call's metering clock (tests move a manual clock); default the system's. */
  voiceClock?: Clock;
  /** The clock of sittings, AI notices and break reminders on chat and calls; default the system's. */
  noticeClock?: Clock;
  /** THE billing clock: the sandbox's time and the checkout and renewal sweeps' timers; default the system's. */
  billingClock?: Clock;
  /** The billing sweeps run on the billing clock's timers (default true; see billing/plugin.ts). */
  billingSweeps?: boolean;
  /**
   * Poll the job queues of on-demand work (default true). False: a test runs them itself with
   * `app.jobs.runDue(name)`; scheduled jobs still run at their occurrences on the billing clock.
   */
  jobWorkers?: boolean;
  /** The contact form's limits (default 5 an hour per address, 100 an hour in all). */
  contactLimits?: Partial<ContactLimits>;
  /** The data exports' clock (their 7 days, the hourly sweep); default the system's. */
  privacyClock?: Clock;
}

// The same relative path from src/app.ts (tsx, vitest) and from dist/main.js (the bundle).
const DEFAULT_WEB_DIST = fileURLToPath(new URL("../../web/dist", import.meta.url));

// JSON bodies above this are refused with 413; file uploads get their own limits.
const BODY_LIMIT_BYTES = 1024 * 1024;

function resolveLogger(options: BuildAppOptions) {
  if (options.logger === undefined) return loggerOptions(options.config);
  if (options.logger === true) {
    return {
      level: options.config.logLevel,
      redact: REDACT_PATHS,
      serializers: LOG_SERIALIZERS,
      hooks: LOG_HOOKS,
    };
  }
  // Given logger options (tests capture the log) keep the redaction too.
  return options.logger === false
    ? false
    : { redact: REDACT_PATHS, serializers: LOG_SERIALIZERS, hooks: LOG_HOOKS, ...options.logger };
}

// What PostgreSQL or the network say when DATABASE_URL is wrong: the host, the password, the name.
const CONNECTION_FAILURES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "28P01",
  "28000",
  "3D000",
]);

/** A first query that could not reach the database: a ConfigError naming DATABASE_URL, no value. */
function unreachableDatabase(error: unknown): ConfigError | undefined {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    if (typeof current.code === "string" && CONNECTION_FAILURES.has(current.code)) {
      return new ConfigError(`DATABASE_URL: cannot connect to the database (${current.code})`);
    }
    current = current.cause as typeof current;
  }
  return undefined;
}

/** Trusts the nearest `hops` proxies in X-Forwarded-For (what Fastify does with a number). */
const trustHops =
  (hops: number) =>
  (_address: string, hop: number): boolean =>
    hop < hops;

/** Builds the whole app: database (migrated), plugins, routes, web app. Not yet listening. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  // Before anything can log or answer: no configured secret ever leaves by value.
  for (const secret of configuredSecrets(config)) rememberSecret(secret, true);
  // Off (no METRICS_TOKEN, no OTEL_EXPORTER_OTLP_ENDPOINT): nothing of either is loaded. A failing
  // OTLP endpoint is warned of in the app's log, which exists from the next statement on.
  let log: FastifyBaseLogger | undefined;
  const observability = await openObservability(config, (fields, message) =>
    log?.warn(fields, message),
  );
  const app = Fastify({
    logger: resolveLogger(options),
    genReqId: requestIdFor,
    // One log line per request, written when it completes (see the onResponse hook).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    // TRUST_PROXY: request.ip is then the proxy's client, for every per-address limit.
    trustProxy:
      typeof config.trustProxy === "number" ? trustHops(config.trustProxy) : config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
  });
  log = app.log;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Registered first, so it runs last: every span of the app is sent before the process goes.
  app.addHook("onClose", async () => {
    await observability.tracing?.shutdown().catch(() => {});
  });
  // Before every hook and route, so that each request has its span (@fastify/otel).
  if (observability.tracing) await app.register(observability.tracing.plugin);
  app.decorate("observability", observability);

  app.addHook("onRequest", (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  // One line per request when it completes. No hook at all when info is off: it is on the
  // path of every request.
  if (["info", "debug", "trace"].includes(app.log.level)) {
    app.addHook("onResponse", (request, reply, done) => {
      request.log.info(
        {
          method: request.method,
          url: loggedUrl(request.url),
          statusCode: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        "request completed",
      );
      done();
    });
  }

  // Cross-cutting plugins first (their root hooks cover every route, the 404 handler too).
  const https = config.publicUrl.startsWith("https:");
  await app.register(securityHeadersPlugin, {
    https,
    googleSignIn: config.googleClientId !== undefined,
    // The settings module registers later; the hook reads it per request (decision 0085).
    embedOrigins: async () => (await app.settings.get()).embedOrigins,
  });
  // Before any route, so that every route (the CSRF token's too) is in the OpenAPI document.
  await app.register(openapiPlugin, { publicUrl: config.publicUrl });
  await app.register(csrfPlugin, { secretsKey: config.secretsKey, secureCookies: https });
  let webFallback: WebFallback | undefined;
  await app.register(errorsPlugin, {
    // Bound late: the web app registers last, after every API route.
    notFoundFallback: (request, reply) => {
      if (!webFallback) throw new Error("The web app is not registered yet");
      return webFallback(request, reply);
    },
  });

  // The embedded database opens on its own thread meanwhile (main.ts): what needs no database
  // registers above, in the time a start would otherwise wait for it (issue 28 item 5).
  const connection = await (
    options.database ??
    openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      onBackgroundError: (error) =>
        app.log.error({ err: error }, "Database error outside a request"),
    })
  ).catch(async (error: unknown) => {
    await observability.tracing?.shutdown().catch(() => {});
    throw error;
  });
  try {
    await applyMigrations(connection);
  } catch (error) {
    await connection.close().catch(() => {});
    await observability.tracing?.shutdown().catch(() => {});
    throw (config.databaseUrl && unreachableDatabase(error)) || error;
  }
  if (observability.tracing)
    traceTransactions(connection.db, connection.kind, observability.tracing);
  app.decorate<DatabaseConnection>("database", connection);
  // Registered first, so it runs last: routes and listeners are done with the database.
  app.addHook("onClose", async () => connection.close());

  // After the error handler (the 401's shape), before the modules: /metrics and request timing.
  await app.register(observabilityPlugin, { observability, metricsToken: config.metricsToken });
  await app.register(rateLimitPlugin, {
    auth: { ...DEFAULT_AUTH_RATE_LIMIT, ...options.authRateLimit },
    loginAccount: { ...DEFAULT_LOGIN_ACCOUNT_LIMIT, ...options.loginAccountLimit },
    redisUrl: config.redisUrl,
    secureCookies: https,
    ...(options.rateLimitKeyPrefix ? { keyPrefix: options.rateLimitKeyPrefix } : {}),
  });
  await app.register(healthRoutes);
  // Before every module: each defines its background jobs on it (docs/decisions/0072).
  await app.register(jobsPlugin, {
    clock: options.billingClock ?? systemClock,
    ...(options.jobWorkers === false ? { workers: false } : {}),
  });
  const backupSchedule = config.backups.schedule;
  if (backupSchedule) {
    const backup = { connection, dataDir: config.dataDir, dir: config.backups.dir, log: app.log };
    app.jobs.define(
      "ops.backup",
      () => runScheduledBackup({ ...backup, databaseUrl: config.databaseUrl }),
      {
        cron: backupSchedule,
        clock: systemClock,
        retryLimit: 1,
        expireInSeconds: 6 * 60 * 60,
      },
    );
  }
  // Before every module: its one hook records the admin writes of all of them.
  await app.register(auditModule);
  await app.register(settingsModule, { secretsKey: config.secretsKey });
  // Each module's service is passed to the modules that use it, in this order: this file says
  // the module graph once (docs/decisions/0097). The decorators stay the tests' handle.
  const { settings } = app;
  // Per call: the admin's stored key wins over the environment's (docs/decisions/0010).
  await app.register(providersPlugin, {
    config,
    storedKeys: () => app.providerKeys.read(),
    observability,
  });
  await app.register(uploadsPlugin, { dataDir: config.dataDir });
  await app.register(mailPlugin, { config });
  // After the migrations (the admin of ADMIN_EMAIL is created or updated here).
  await app.register(accountsModule, {
    config,
    settings,
    ...(options.googleVerifier ? { googleVerifier: options.googleVerifier } : {}),
  });
  const { auth, users, onSignIn } = app;
  await app.register(memoryModule, { settings });
  const { memory } = app;
  // Before chat and billing: their replies and money events queue push notices (issue 27).
  await app.register(pushModule, {
    config,
    settings,
    ...(options.billingClock ? { clock: options.billingClock } : {}),
    ...(options.billingSweeps === false ? { sweeps: false } : {}),
  });
  const { push } = app;
  await app.register(chatModule, {
    settings,
    memory,
    push,
    ...(options.chatProviderTimeoutMs ? { providerTimeoutMs: options.chatProviderTimeoutMs } : {}),
    ...(options.noticeClock ? { noticeClock: options.noticeClock } : {}),
  });
  const { chat, persona, crisis, aiNotices } = app;
  // After chat (its persona, model, notices and crisis desk) and accounts (onSignIn).
  await app.register(trialModule, {
    settings,
    persona,
    crisis,
    aiNotices,
    memory,
    onSignIn,
    secureCookies: https,
    clock: options.billingClock ?? systemClock,
    ...(options.chatProviderTimeoutMs ? { providerTimeoutMs: options.chatProviderTimeoutMs } : {}),
  });
  await app.register(adminModule, { auth, users });
  await app.register(auditLogRoutesModule);
  await app.register(jobsModule);
  const billingClock = options.billingClock ?? systemClock;
  await app.register(dashboardsModule, {
    chat,
    billingNow: () => new Date(billingClock.now()),
  });
  await app.register(operatorModule, {
    config,
    ...(options.uploadLimits ? { uploadLimits: options.uploadLimits } : {}),
  });
  // Before billing: its fulfilment queues e-mail and kicks the sender (issue 26).
  await app.register(fanMailModule, {
    config,
    settings,
    ...(options.billingClock ? { clock: options.billingClock } : {}),
    ...(options.billingSweeps === false ? { sweeps: false } : {}),
    ...(options.contactLimits ? { contactLimits: options.contactLimits } : {}),
  });
  const { fanMail } = app;
  await app.register(billingModule, {
    config,
    fanMail,
    push,
    ...(options.billingClock ? { clock: options.billingClock } : {}),
    ...(options.billingSweeps === false ? { sweeps: false } : {}),
  });
  const { billing } = app;
  await app.register(voiceModule, {
    settings,
    persona,
    crisis,
    aiNotices,
    chat,
    memory,
    spend: config.voiceSpend,
    ...(options.voiceClock ? { clock: options.voiceClock } : {}),
  });
  const { voice } = app;
  await app.register(privacyModule, {
    config,
    auth,
    users,
    billing,
    voice,
    ...(options.privacyClock ? { clock: options.privacyClock } : {}),
  });
  if (options.register) await app.register(options.register);

  webFallback = await registerWebApp(app, { distDir: options.webDistDir ?? DEFAULT_WEB_DIST });

  try {
    await app.ready();
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
  return app;
}
