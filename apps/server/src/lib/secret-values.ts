/**
 * Every secret this process knows (configured or stored), redacted BY VALUE from answers and
 * log lines: every occurrence, whatever characters the secret holds, raw, JSON-escaped or
 * URL-encoded, and a provider's starred quote of it ("sk-abc1****wxyz").
 * docs/decisions/0039-secrets-redacted-by-value.md
 */

export const REDACTED = "[redacted]";

/**
 * Shorter values are not redacted: replacing "admin" or "1234" everywhere would garble answers,
 * and a secret that short is no secret. Keys and generated secrets are far longer.
 */
export const MIN_REDACTED_LENGTH = 8;

// Keys tested or stored come and go; the oldest unpinned ones leave past this many.
const MAX_REMEMBERED = 500;

const pinned = new Set<string>();
const remembered = new Set<string>();
let matcher: RegExp | undefined;

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

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

function rebuild(): void {
  const forms = [...pinned, ...remembered].flatMap(formsOf).sort((x, y) => y.length - x.length);
  matcher = forms.length > 0 ? new RegExp(forms.map(escapeRegExp).join("|"), "g") : undefined;
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
    if (remembered.size > MAX_REMEMBERED) {
      const oldest = remembered.values().next().value;
      if (oldest !== undefined) remembered.delete(oldest);
    }
  }
  rebuild();
}

// A provider quoting a key it refused keeps its start and end around a run of stars. Our own
// mask (MASK_CHAR, "sk-••••wxyz" in the admin's settings) is not one: the form sends it back.
const STAR_RUN = /\*{3,}/g;
const MIN_QUOTED_START = 3;
const MAX_QUOTED_END = 8;

/** How a star run at [from, to) quotes a known secret: the characters before and after it. */
function quoteAround(text: string, from: number, to: number): { before: number; after: number } {
  let best = { before: 0, after: 0 };
  for (const secret of [...pinned, ...remembered]) {
    let before = Math.min(secret.length - 1, from);
    while (
      before >= MIN_QUOTED_START &&
      text.slice(from - before, from) !== secret.slice(0, before)
    ) {
      before -= 1;
    }
    if (before < MIN_QUOTED_START || before < best.before) continue;
    let after = Math.min(MAX_QUOTED_END, secret.length - before, text.length - to);
    while (after > 0 && text.slice(to, to + after) !== secret.slice(-after)) after -= 1;
    // Many keys share a start ("sk-"): the one whose end follows the stars is the one quoted.
    if (before > best.before || after > best.after) best = { before, after };
  }
  return best;
}

/** Replaces every starred quote "<start of a secret>****<its last characters>". */
function redactStarredQuotes(text: string): string {
  if (!text.includes("***")) return text;
  let result = "";
  let done = 0;
  for (const run of text.matchAll(STAR_RUN)) {
    const from = run.index;
    const to = from + run[0].length;
    if (from < done) continue;
    const { before: quoted, after } = quoteAround(text, from, to);
    const before = Math.min(quoted, from - done);
    if (before === 0) continue;
    result += `${text.slice(done, from - before)}${REDACTED}`;
    done = to + after;
  }
  return result + text.slice(done);
}

/** `text` with every known secret (and every starred quote of one) replaced by [redacted]. */
export function redactSecrets(text: string): string {
  if (!matcher) return text;
  return redactStarredQuotes(text.replace(matcher, REDACTED));
}

/** Redacts every string inside a JSON-like value (an error's details, a log object). */
export function redactSecretsIn<T>(value: T): T {
  if (!matcher) return value;
  return JSON.parse(redactSecrets(JSON.stringify(value))) as T;
}
