import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

const dataDir = () => mkdtempSync(join(tmpdir(), "twinline-config-"));

function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig({ DATA_DIR: dataDir(), ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("loadConfig accepted the environment");
}

describe("loadConfig", () => {
  it("uses the documented defaults", () => {
    const directory = dataDir();
    const config = loadConfig({ DATA_DIR: directory });
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      publicUrl: "http://localhost:3000",
      dataDir: directory,
      databaseUrl: undefined,
      logLevel: "info",
      googleClientId: undefined,
      backups: { dir: join(directory, "backups"), schedule: undefined },
    });
  });

  it("derives PUBLIC_URL from PORT and reads every variable", () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      PORT: "4100",
      HOST: "0.0.0.0",
      DATABASE_URL: "postgres://u@db:5432/twinline",
      OPENAI_BASE_URL: "http://localhost:11434/v1",
      STRIPE_API_BASE: "http://127.0.0.1:12111",
      REDIS_URL: "redis://cache:6379",
      LOG_LEVEL: "debug",
    });
    expect(config).toMatchObject({
      port: 4100,
      host: "0.0.0.0",
      publicUrl: "http://localhost:4100",
      databaseUrl: "postgres://u@db:5432/twinline",
      openai: { baseUrl: "http://localhost:11434/v1" },
      stripe: { apiBase: "http://127.0.0.1:12111" },
      redisUrl: "redis://cache:6379",
      logLevel: "debug",
    });
  });

  it("treats an empty variable as unset", () => {
    const config = loadConfig({ DATA_DIR: dataDir(), PORT: "", DATABASE_URL: " " });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
  });

  it("names the variable and what is wrong, never its value", () => {
    expect(configError({ PORT: "abc" })).toBe("PORT must be a whole number from 1 to 65535");
    expect(configError({ PORT: "70000" })).toMatch(/^PORT must be a whole number/);
    expect(configError({ DATABASE_URL: "mysql://x" })).toMatch(
      /^DATABASE_URL must be a postgres:\/\/ URL/,
    );
    expect(configError({ PUBLIC_URL: "localhost" })).toMatch(/^PUBLIC_URL must be an http/);
    expect(configError({ LOG_LEVEL: "loud" })).toMatch(/^LOG_LEVEL must be one of fatal, error/);
    expect(configError({ JWT_SECRET: "short" })).toMatch(/^JWT_SECRET must be at least 32/);
    expect(configError({ ADMIN_EMAIL: "boss" })).toMatch(/^ADMIN_EMAIL must be an e-mail/);
    expect(configError({ ADMIN_EMAIL: "boss@example.com" })).toMatch(/^ADMIN_PASSWORD must be set/);
    expect(configError({ TRUST_PROXY: "yes please" })).toMatch(/^TRUST_PROXY must be true, false/);
    expect(configError({ BACKUP_SCHEDULE: "every night" })).toBe(
      'BACKUP_SCHEDULE must be a cron expression, for example "0 3 * * *"',
    );
    expect(configError({ BACKUP_SCHEDULE: "0 25 * * *" })).toMatch(
      /^BACKUP_SCHEDULE must be a cron/,
    );
  });

  it("reads the metrics token and the OpenTelemetry endpoint, off when unset", () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({
      metricsToken: undefined,
      otel: { endpoint: undefined, serviceName: "twinline" },
    });
    const config = loadConfig({
      DATA_DIR: dataDir(),
      METRICS_TOKEN: "a-token-of-16-characters",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/",
      OTEL_SERVICE_NAME: "twinline-eu",
    });
    expect(config).toMatchObject({
      metricsToken: "a-token-of-16-characters",
      otel: { endpoint: "http://collector:4318", serviceName: "twinline-eu" },
    });
    expect(configError({ METRICS_TOKEN: "short-token" })).toBe(
      "METRICS_TOKEN must be at least 16 characters long (or unset: no /metrics)",
    );
    expect(configError({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toBe(
      "OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL",
    );
  });

  it("keeps passwords and secrets out of the message", () => {
    const password = "s3cret-Passw0rd";
    const cases: Array<[string, string]> = [
      ["DATABASE_URL", `mysql://admin:${password}@db.example.com/app`],
      ["DATABASE_URL", `postgres://admin:${password}@[bad host/app`],
      ["REDIS_URL", `http://:${password}@cache.example.com:6379`],
      ["JWT_SECRET", password],
      ["SECRETS_KEY", password],
    ];
    for (const [name, value] of cases) {
      const message = configError({ [name]: value });
      expect(message.startsWith(`${name} `), message).toBe(true);
      expect(message).not.toContain(password);
      expect(message).not.toContain("admin");
    }
  });

  it("reads TRUST_PROXY as off, true, a hop count or a list of addresses and ranges", () => {
    const read = (value: string | undefined) =>
      loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: value }).trustProxy;
    expect(read(undefined)).toBe(false);
    expect(read("false")).toBe(false);
    expect(read("true")).toBe(true);
    expect(read("2")).toBe(2);
    expect(read("127.0.0.1, 10.0.0.0/8,fd00::/8")).toEqual(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);
    for (const bad of ["10.0.0.0/33", "proxy.example.com", "1.2.3.4,", "::1/129", "-1"]) {
      expect(configError({ TRUST_PROXY: bad }), bad).toMatch(/^TRUST_PROXY must be true, false/);
    }
  });

  it("stops the server start with the message alone, no stack trace", () => {
    const result = spawnSync(
      process.execPath,
      ["--import", "tsx", resolve(import.meta.dirname, "main.ts")],
      { env: { ...process.env, PORT: "abc", DATA_DIR: dataDir() }, encoding: "utf8" },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("PORT must be a whole number from 1 to 65535");
    expect(result.stderr).not.toContain("abc");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("a DATABASE_URL that cannot be reached stops the start naming it, never its password", async () => {
    const password = "db-Passw0rd.With,odd;chars";
    const closed = await new Promise<number>((done) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => done(port));
      });
    });
    const result = spawnSync(
      process.execPath,
      ["--import", "tsx", resolve(import.meta.dirname, "main.ts")],
      {
        env: {
          ...process.env,
          DATA_DIR: dataDir(),
          DATABASE_URL: `postgres://app:${encodeURIComponent(password)}@127.0.0.1:${closed}/app`,
          REDIS_URL: `redis://:${encodeURIComponent(password)}@127.0.0.1:${closed}`,
          LOG_LEVEL: "trace",
        },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Configuration error: DATABASE_URL: cannot connect");
    for (const output of [result.stderr, result.stdout]) {
      expect(output).not.toContain(password);
      expect(output).not.toContain(encodeURIComponent(password));
      expect(output).not.toContain("db-Passw0rd");
    }
  });
});
