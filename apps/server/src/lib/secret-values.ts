import { keepNewest } from "./keep-newest.ts";

/**
 * Every secret this process knows (configured or stored), redacted BY VALUE from answers and
 * log lines: every occurrence, whatever characters the secret holds, raw, JSON-escaped or
 * URL-encoded, and a provider's starred quote of it ("sk-abc1****wxyz").
 * docs/decisions/0039-secrets-redacted-by-value.md
 *
 * Redaction runs on every answer and every log line, so it must never throw and never cost more
 * than a pass over the text, whatever the secrets are: no expression is ever built from them
 * (issue 24: one regular expression of a 40,000-character key took the whole server down).
 */
import { SecretIndex } from "./secret-index.ts";

export const REDACTED = "[redacted]";

/**
 * Shorter values are not redacted: replacing "admin" or "1234" everywhere would garble answers,
 * and a secret that short is no secret. Keys and generated secrets are far longer.
 */
export const MIN_REDACTED_LENGTH = 8;

// Keys tested or stored come and go; the oldest unpinned ones leave past this many.
const MAX_REMEMBERED = 100;

const pinned = new Set<string>();
const remembered = new Set<string>();
// Built again on the next redaction after a secret comes or goes.
let index: SecretIndex | undefined;

/** The ways a secret is written where it may leak: raw, inside JSON, inside a URL. */
function formsOf(secret: string): string[] {
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1)]);
  try {
    forms.add(encodeURIComponent(secret));
  } catch {
    // A lone surrogate cannot be URL-encoded: it cannot be in a URL either.
  }
  return [...forms];
}

function currentIndex(): SecretIndex | undefined {
  if (index) return index;
  if (pinned.size === 0 && remembered.size === 0) return undefined;
  const secrets = [...pinned, ...remembered];
  index = new SecretIndex(secrets.flatMap(formsOf), secrets, MIN_REDACTED_LENGTH);
  return index;
}

/**
 * Makes `value` a secret to redact. `pin`: a configured secret, kept for the process's life;
 * otherwise (a key stored or tested) among the last MAX_REMEMBERED.
 */
export function rememberSecret(value: string | undefined | null, pin = false): void {
  if (!value || value.length < MIN_REDACTED_LENGTH) return;
  if (pinned.has(value) || (!pin && remembered.has(value))) return;
  if (pin) {
    remembered.delete(value);
    pinned.add(value);
  } else {
    remembered.add(value);
    keepNewest(remembered, MAX_REMEMBERED);
  }
  index = undefined;
}

/**
 * `text` with every known secret (and every starred quote of one) replaced by [redacted]. It
 * cannot throw: should anything inside fail, the whole text is withheld rather than risk a leak.
 */
export function redactSecrets(text: string): string {
  try {
    const current = currentIndex();
    return current ? current.redact(text, REDACTED) : text;
  } catch {
    return REDACTED;
  }
}

/** Redacts every string inside a JSON-like value (an error's details, a log object). */
export function redactSecretsIn<T>(value: T): T {
  if (!currentIndex()) return value;
  return redactValue(value, 0) as T;
}

// Deeper than any answer or log object we make; what lies below is withheld, not walked.
const MAX_DEPTH = 32;

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  // As JSON would write it: a Date or a Buffer by its toJSON.
  const plain = value as { toJSON?: () => unknown };
  if (typeof plain.toJSON === "function") return redactValue(plain.toJSON(), depth + 1);
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    result[redactSecrets(key)] = redactValue(item, depth + 1);
  }
  return result;
}
