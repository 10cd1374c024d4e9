import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "./config-error.ts";

const OWNER_ONLY = 0o600;

/**
 * Returns the secret stored in `${dataDir}/${name}`, creating it (32 random bytes, base64url,
 * mode 600) the first time. Creation uses the exclusive flag, so two processes starting on the
 * same DATA_DIR at once still end up sharing one secret.
 */
export function loadOrCreateSecret(dataDir: string, name: string): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, name);
  try {
    writeFileSync(path, `${randomBytes(32).toString("base64url")}\n`, {
      mode: OWNER_ONLY,
      flag: "wx",
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // A copy restored from a backup may have lost its mode; the secret must stay private.
    if ((statSync(path).mode & 0o777) !== OWNER_ONLY) chmodSync(path, OWNER_ONLY);
  }
  const value = readFileSync(path, "utf8").trim();
  if (value.length < 32) {
    // Never silently replace it: tokens and encrypted provider keys depend on it.
    throw new ConfigError(
      `${path} is empty or too short; restore it or delete it to generate a new one`,
    );
  }
  return value;
}

/** The VAPID key pair of Web Push (docs/decisions/0082): base64url, as `web-push` takes them. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The server's VAPID keys, stored as JSON in `${dataDir}/vapid-keys` (mode 600) and generated
 * the first time, like the other secrets: created with the exclusive flag, so two processes on
 * one DATA_DIR share one pair. `generate` makes a fresh pair (web-push's generateVAPIDKeys).
 */
export function loadOrCreateVapidKeys(dataDir: string, generate: () => VapidKeys): VapidKeys {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "vapid-keys");
  // A pair already there is not generated again only to be dropped: generating loads web-push,
  // which a reopen's start paid for (issue 28). The exclusive flag still settles a race.
  if (!existsSync(path)) {
    try {
      writeFileSync(path, `${JSON.stringify(generate())}\n`, { mode: OWNER_ONLY, flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  if ((statSync(path).mode & 0o777) !== OWNER_ONLY) chmodSync(path, OWNER_ONLY);
  let keys: Partial<VapidKeys> = {};
  try {
    keys = JSON.parse(readFileSync(path, "utf8")) as Partial<VapidKeys>;
  } catch {
    // Reported below.
  }
  if (typeof keys.publicKey !== "string" || typeof keys.privateKey !== "string") {
    // Never silently replaced: every browser's subscription is bound to the public key.
    throw new ConfigError(`${path} is unreadable; restore it or delete it to generate new keys`);
  }
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}
