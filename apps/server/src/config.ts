import { createRequire } from "node:module";
import { isIP } from "node:net";
import { join, resolve } from "node:path";
import { z } from "zod";
import { ConfigError } from "./config-error.ts";
import {
  DEFAULT_POCKETSPHINX_BIN,
  DEFAULT_POCKETSPHINX_MODEL_DIR,
} from "./providers/stt/pocketsphinx.ts";
import { loadOrCreateSecret, loadOrCreateVapidKeys, type VapidKeys } from "./secrets.ts";

export { ConfigError };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  /**
   * Base of links in mail (and, when set, of checkout's pages), without a trailing slash;
   * unset: `http://localhost:{PORT}`.
   */
  publicUrl: string;
  /** Whether PUBLIC_URL was set; unset, checkout comes back to the request's own origin when safe (lib/app-origin.ts). */
  publicUrlSet: boolean;
  /** Absolute path: PGlite files, uploads, generated secrets. */
  dataDir: string;
  /** Unset: embedded PGlite under `${dataDir}/pglite`. */
  databaseUrl: string | undefined;
  jwtSecret: string;
  /** Root key for encrypting stored provider keys and deriving other secrets (HKDF). */
  secretsKey: string;
  /** Web Push (docs/decisions/0082): the VAPID keys, generated once into DATA_DIR. */
  vapid: VapidKeys;
  /**
   * WEB_PUSH_HTTP_ORIGIN: one http origin accepted as a push endpoint beside https ones (a local
   * push service in tests); unset: https endpoints only.
   */
  webPushHttpOrigin: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  openai: {
    apiKey: string | undefined;
    baseUrl: string | undefined;
    model: string | undefined;
    sttModel: string | undefined;
  };
  /** The offline recogniser (Debian's pocketsphinx); used with no key when installed. */
  pocketsphinx: { bin: string; modelDir: string };
  elevenlabs: { apiKey: string | undefined; baseUrl: string | undefined };
  stripe: {
    secretKey: string | undefined;
    publishableKey: string | undefined;
    webhookSecret: string | undefined;
    apiBase: string | undefined;
  };
  googleClientId: string | undefined;
  redisUrl: string | undefined;
  /**
   * Fastify's `trustProxy` (TRUST_PROXY): which proxies' X-Forwarded-For names the client.
   * false (the default): the connection's own address is the client.
   */
  trustProxy: boolean | number | string[];
  voiceSpend: VoiceSpendLimits;
  /** `npm run backup`'s folder, and the scheduled backup's when BACKUP_SCHEDULE is set. */
  backups: { dir: string; schedule: string | undefined };
  logLevel: LogLevel;
  /** GET /metrics (Prometheus) with this bearer token; unset: no /metrics at all. */
  metricsToken: string | undefined;
  /**
   * OpenTelemetry traces: OTLP/HTTP (JSON) to `${endpoint}/v1/traces` when set; unset: no
   * tracing at all. `serviceName` (OTEL_SERVICE_NAME, default "twinline") names the service.
   */
  otel: { endpoint: string | undefined; serviceName: string };
  /** NODE_ENV === "production": log formatting, and the outbox logs no mail text (reset links). */
  isProduction: boolean;
}

/** The operator's provider spend per user: POST synthesize and process, and the call's socket. */
export interface VoiceSpendLimits {
  /** Requests per user per minute, each route (VOICE_RATE_LIMIT_PER_MINUTE, default 20). */
  perMinute: number;
  /**
   * Utterances (and eager candidates) per user per minute on a live call, each one a
   * speech-to-text request and perhaps a reply (VOICE_CALL_UTTERANCES_PER_MINUTE, default 60).
   */
  callUtterancesPerMinute: number;
  /** Characters synthesized per user per UTC day (VOICE_DAILY_TTS_CHARACTERS, default 20,000). */
  dailySynthesizedCharacters: number;
  /** LLM replies per user per UTC day (VOICE_DAILY_LLM_CALLS, default 200). */
  dailyLlmCalls: number;
}

// An empty variable (`PORT=` in a .env file) means "unset", as most tools read it.
const optional = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim()));

const url = (protocols: readonly string[], hint: string) =>
  optional.superRefine((value, ctx) => {
    if (value === undefined) return;
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: `must be ${hint}` });
      return;
    }
    if (!protocols.includes(parsed.protocol)) {
      ctx.addIssue({ code: "custom", message: `must be ${hint}` });
    }
  });

const httpUrl = url(["http:", "https:"], "an http(s) URL");

const secret = optional.refine((value) => value === undefined || value.length >= 32, {
  message: "must be at least 32 characters long (leave it unset to generate one)",
});

const TRUST_PROXY_HINT =
  "must be true, false, a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges";

/** An IP address, or a CIDR range (10.0.0.0/8, fd00::/8). */
function isAddressOrRange(entry: string): boolean {
  const [address = "", bits, extra] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

// Off by default: trusting X-Forwarded-For from anyone lets a client pick its own address.
const trustProxy = optional.transform((value, ctx): boolean | number | string[] => {
  if (value === undefined || value.toLowerCase() === "false") return false;
  if (value.toLowerCase() === "true") return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(",").map((entry) => entry.trim());
  if (entries.every((entry) => entry !== "" && isAddressOrRange(entry))) return entries;
  ctx.addIssue({ code: "custom", message: TRUST_PROXY_HINT });
  return z.NEVER;
});
const cronExpression = optional.superRefine((value, ctx) => {
  if (value === undefined) return;
  try {
    // Loaded only when BACKUP_SCHEDULE is set: the config is read before the database's thread
    // starts, so what it loads delays that (issue 28, the start's critical path).
    const cronParser = createRequire(import.meta.url)(
      "cron-parser",
    ) as typeof import("cron-parser");
    cronParser.parseExpression(value, { tz: "UTC" });
  } catch {
    ctx.addIssue({ code: "custom", message: 'must be a cron expression, for example "0 3 * * *"' });
  }
});

const count = (fallback: number) =>
  optional.pipe(
    z
      .string()
      .regex(/^\d+$/, "must be a whole number")
      .transform(Number)
      .optional()
      .transform((value) => value ?? fallback),
  );

const envSchema = z.object({
  PORT: optional.pipe(
    z
      .string()
      .regex(/^\d+$/, "must be a whole number from 1 to 65535")
      .transform(Number)
      .refine((port) => port >= 1 && port <= 65535, "must be a whole number from 1 to 65535")
      .optional(),
  ),
  HOST: optional,
  PUBLIC_URL: httpUrl,
  DATA_DIR: optional,
  DATABASE_URL: url(["postgres:", "postgresql:"], "a postgres:// URL"),
  JWT_SECRET: secret,
  SECRETS_KEY: secret,
  ADMIN_EMAIL: optional.pipe(z.email("must be an e-mail address").optional()),
  ADMIN_PASSWORD: optional,
  SMTP_URL: url(["smtp:", "smtps:"], "an smtp:// or smtps:// URL"),
  MAIL_FROM: optional,
  OPENAI_API_KEY: optional,
  OPENAI_BASE_URL: httpUrl,
  OPENAI_MODEL: optional,
  OPENAI_STT_MODEL: optional,
  POCKETSPHINX_BIN: optional,
  POCKETSPHINX_MODEL_DIR: optional,
  ELEVENLABS_API_KEY: optional,
  ELEVENLABS_BASE_URL: httpUrl,
  STRIPE_SECRET_KEY: optional,
  STRIPE_PUBLISHABLE_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_BASE: httpUrl,
  GOOGLE_CLIENT_ID: optional,
  REDIS_URL: url(["redis:", "rediss:"], "a redis:// or rediss:// URL"),
  TRUST_PROXY: trustProxy,
  VOICE_RATE_LIMIT_PER_MINUTE: count(20),
  VOICE_CALL_UTTERANCES_PER_MINUTE: count(60),
  VOICE_DAILY_TTS_CHARACTERS: count(20_000),
  VOICE_DAILY_LLM_CALLS: count(200),
  BACKUP_DIR: optional,
  BACKUP_SCHEDULE: cronExpression,
  LOG_LEVEL: optional.pipe(
    z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).optional(),
  ),
  METRICS_TOKEN: optional.refine((value) => value === undefined || value.length >= 16, {
    message: "must be at least 16 characters long (or unset: no /metrics)",
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl,
  WEB_PUSH_HTTP_ORIGIN: httpUrl,
  OTEL_SERVICE_NAME: optional,
  NODE_ENV: optional,
});

// web-push is loaded only when a data directory has no VAPID keys yet (a first start): a
// reopen reads them from DATA_DIR and never needs it (issue 28, the start's main thread).
function generateVapidKeys(): VapidKeys {
  const webPush = createRequire(import.meta.url)("web-push") as typeof import("web-push");
  return webPush.generateVAPIDKeys();
}

/** Reads the environment. Throws a ConfigError naming the first wrong variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    // Never the value: a URL or a key carries a password, and this line goes to the console.
    throw new ConfigError(`${name} ${issue?.message ?? "is invalid"}`);
  }
  const e = parsed.data;
  if (e.ADMIN_EMAIL !== undefined && e.ADMIN_PASSWORD === undefined) {
    throw new ConfigError("ADMIN_PASSWORD must be set when ADMIN_EMAIL is set");
  }

  const port = e.PORT ?? 3000;
  const dataDir = resolve(e.DATA_DIR ?? "./data");
  return {
    port,
    host: e.HOST ?? "127.0.0.1",
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    publicUrlSet: e.PUBLIC_URL !== undefined,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    // Generated once and kept in DATA_DIR, so tokens and encrypted keys survive restarts.
    jwtSecret: e.JWT_SECRET ?? loadOrCreateSecret(dataDir, "jwt-secret"),
    secretsKey: e.SECRETS_KEY ?? loadOrCreateSecret(dataDir, "secrets-key"),
    vapid: loadOrCreateVapidKeys(dataDir, generateVapidKeys),
    webPushHttpOrigin: e.WEB_PUSH_HTTP_ORIGIN ? new URL(e.WEB_PUSH_HTTP_ORIGIN).origin : undefined,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    openai: {
      apiKey: e.OPENAI_API_KEY,
      baseUrl: e.OPENAI_BASE_URL,
      model: e.OPENAI_MODEL,
      sttModel: e.OPENAI_STT_MODEL,
    },
    pocketsphinx: {
      bin: e.POCKETSPHINX_BIN ?? DEFAULT_POCKETSPHINX_BIN,
      modelDir: e.POCKETSPHINX_MODEL_DIR ?? DEFAULT_POCKETSPHINX_MODEL_DIR,
    },
    elevenlabs: { apiKey: e.ELEVENLABS_API_KEY, baseUrl: e.ELEVENLABS_BASE_URL },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      publishableKey: e.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE,
    },
    googleClientId: e.GOOGLE_CLIENT_ID,
    redisUrl: e.REDIS_URL,
    trustProxy: e.TRUST_PROXY,
    voiceSpend: {
      perMinute: e.VOICE_RATE_LIMIT_PER_MINUTE,
      callUtterancesPerMinute: e.VOICE_CALL_UTTERANCES_PER_MINUTE,
      dailySynthesizedCharacters: e.VOICE_DAILY_TTS_CHARACTERS,
      dailyLlmCalls: e.VOICE_DAILY_LLM_CALLS,
    },
    backups: {
      dir: resolve(e.BACKUP_DIR ?? join(dataDir, "backups")),
      schedule: e.BACKUP_SCHEDULE,
    },
    logLevel: e.LOG_LEVEL ?? "info",
    metricsToken: e.METRICS_TOKEN,
    otel: {
      // The OTLP base; the exporter posts to its /v1/traces, as the OpenTelemetry spec says.
      endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, ""),
      serviceName: e.OTEL_SERVICE_NAME ?? "twinline",
    },
    isProduction: e.NODE_ENV === "production",
  };
}

/** The password of a URL (DATABASE_URL, REDIS_URL, SMTP_URL), as written and decoded. */
function passwordOf(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const { password } = new URL(value);
    if (!password) return [];
    let decoded = password;
    try {
      decoded = decodeURIComponent(password);
    } catch {
      // Kept as written.
    }
    return [password, decoded];
  } catch {
    return [];
  }
}

/**
 * Every configured secret, to be redacted by value from answers and logs (lib/secret-values.ts).
 * Public values (the Stripe publishable key, the Google client id) are not secrets.
 */
export function configuredSecrets(config: Config): string[] {
  return [
    config.jwtSecret,
    config.secretsKey,
    config.vapid.privateKey,
    config.adminPassword,
    config.openai.apiKey,
    config.elevenlabs.apiKey,
    config.stripe.secretKey,
    config.stripe.webhookSecret,
    config.metricsToken,
    ...passwordOf(config.databaseUrl),
    ...passwordOf(config.redisUrl),
    ...passwordOf(config.smtpUrl),
  ].filter((value): value is string => typeof value === "string" && value !== "");
}
