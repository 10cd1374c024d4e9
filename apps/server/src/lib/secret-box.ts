import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Seals short secrets (provider keys) with AES-256-GCM; see docs/decisions/0010-provider-keys.md. */
export interface SecretBox {
  /** "v1." + base64url(iv ‖ tag ‖ ciphertext), a fresh random IV each time. */
  seal(plaintext: string): string;
  /** The plaintext; throws on a wrong key, a changed byte or an unknown version. */
  open(sealed: string): string;
}

/** A box keyed by SECRETS_KEY through HKDF, so the root key itself never encrypts anything. */
export function createSecretBox(secretsKey: string): SecretBox {
  const key = Buffer.from(
    hkdfSync("sha256", secretsKey, "twinline", "provider-keys/aes-256-gcm", 32),
  );
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${VERSION}.${Buffer.concat([iv, tag, ciphertext]).toString("base64url")}`;
    },
    open(sealed) {
      const [version, payload] = sealed.split(".");
      if (version !== VERSION || !payload) throw new Error("Unknown sealed secret format");
      const bytes = Buffer.from(payload, "base64url");
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error("Sealed secret is too short");
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    },
  };
}
