import { MASK_CHAR } from "@twinline/contracts";

/** Keys whose values are secrets wherever they appear (settings' apiKeys, tokens, passwords). */
const SECRET_KEY = /secret|password|token|api_?key|^openai$|^elevenlabs$|^stripe$|publishable/i;
const MAX_JSON_CHARS = 16_000;

const maskValue = (value: string): string =>
  value.length === 0 ? "" : `${MASK_CHAR.repeat(8)}${value.length > 12 ? value.slice(-4) : ""}`;

/**
 * A value as the audit log keeps it: every string under a secret-looking key masked (only its
 * last 4 characters kept, as the settings screens show keys), and at most 16 kB of JSON (a
 * larger one is replaced by a note, never cut mid-value).
 */
export function auditValue(value: unknown): unknown {
  if (value === undefined) return null;
  const masked = mask(value, false);
  const json = JSON.stringify(masked);
  if (json !== undefined && json.length > MAX_JSON_CHARS) {
    return { truncated: true, note: `The value was ${json.length} characters long` };
  }
  return masked;
}

function mask(value: unknown, secret: boolean): unknown {
  if (typeof value === "string") return secret ? maskValue(value) : value;
  if (Array.isArray(value)) return value.map((each) => mask(each, secret));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, each]) => [
        key,
        mask(each, secret || SECRET_KEY.test(key)),
      ]),
    );
  }
  return value;
}
