import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configuredSecrets, loadConfig } from "./config.ts";

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe("generated secrets", () => {
  it("are created once in DATA_DIR, readable by the owner only, and reused", () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "twinline-secrets-")), "data");
    const first = loadConfig({ DATA_DIR: dataDir });

    for (const name of ["jwt-secret", "secrets-key"]) {
      expect(modeOf(join(dataDir, name))).toBe(0o600);
    }
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.secretsKey.length).toBeGreaterThanOrEqual(32);
    expect(first.jwtSecret).not.toBe(first.secretsKey);
    expect(readFileSync(join(dataDir, "jwt-secret"), "utf8").trim()).toBe(first.jwtSecret);

    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.secretsKey).toBe(first.secretsKey);
  });

  it("include the Web Push VAPID key pair, made once (mode 600) and reused; its private key is redacted", () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "twinline-secrets-")), "data");
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(modeOf(join(dataDir, "vapid-keys"))).toBe(0o600);
    // A P-256 public key (65 bytes) and private key (32 bytes), base64url.
    expect(Buffer.from(first.vapid.publicKey, "base64url")).toHaveLength(65);
    expect(Buffer.from(first.vapid.privateKey, "base64url")).toHaveLength(32);
    expect(loadConfig({ DATA_DIR: dataDir }).vapid).toEqual(first.vapid);
    expect(configuredSecrets(first)).toContain(first.vapid.privateKey);
    expect(configuredSecrets(first)).not.toContain(first.vapid.publicKey);
  });

  it("are not generated when the environment sets them", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "twinline-secrets-"));
    const jwtSecret = "j".repeat(40);
    const secretsKey = "k".repeat(40);
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: jwtSecret,
      SECRETS_KEY: secretsKey,
    });
    expect(config.jwtSecret).toBe(jwtSecret);
    expect(config.secretsKey).toBe(secretsKey);
    expect(existsSync(join(dataDir, "jwt-secret"))).toBe(false);
    expect(existsSync(join(dataDir, "secrets-key"))).toBe(false);
  });
});
