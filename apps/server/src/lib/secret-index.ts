/**
 * Finds known secret values in a text in one pass, without building an expression from them
 * (decision 0039): Wu and Manber's multi-pattern search, anchored on the last `window`
 * characters of each form. A table of two-character blocks says how far the scan may jump (most
 * text is skipped `window - 1` characters at a time); where it may not, the window's hash picks
 * the forms that end there, compared in full. Time is at most linear in the text (plus the length
 * of each true match); memory is the forms themselves. Nothing here can throw on any text or
 * any secret. It runs on every answer and log line, so the common case (no secret) is the fast one.
 */

const HASH_BASE = 0x01000193;
const FILTER_BITS = 16;
const FILTER_MASK = (1 << FILTER_BITS) - 1;
const BLOCK = 2;
// The window is the shortest form's length, up to this: the longer it is, the further the scan
// jumps (keys and generated secrets are 32 characters and more).
const MAX_WINDOW = 32;

/** A 16-bit hash of the two characters at `at`: the shift table's index. */
const blockHash = (text: string, at: number) =>
  ((text.charCodeAt(at) * 0x9e37) ^ text.charCodeAt(at + 1)) & FILTER_MASK;

// A provider quoting a key it refused keeps its start and end around a run of stars. Our own
// mask (MASK_CHAR, "sk-••••wxyz" in the admin's settings) is not one: the form sends it back.
const STAR_RUN = /\*{3,}/g;
const MIN_QUOTED_START = 3;
// Providers keep a key's prefix ("sk-proj-", "sk_test_") and a few characters more.
const MAX_QUOTED_START = 24;
const MAX_QUOTED_END = 8;

interface Span {
  from: number;
  to: number;
}

export class SecretIndex {
  private readonly window: number;
  /** By a block's hash: how far the window's end may move before a form can end there. */
  private readonly shift: Uint8Array;
  private readonly filter = new Uint8Array(FILTER_MASK + 1);
  private readonly bySuffix = new Map<number, string[]>();
  /** Each start of a secret that a starred quote may keep, with the secrets it starts. */
  private readonly byStart = new Map<string, string[]>();

  /**
   * `forms`: every string to replace (one shorter than `minLength` is not); `secrets`: the values
   * whose starred quotes are replaced too.
   */
  constructor(forms: readonly string[], secrets: readonly string[], minLength: number) {
    const lengths = forms.map((form) => form.length).filter((length) => length >= minLength);
    const window = lengths.length > 0 ? Math.min(MAX_WINDOW, ...lengths) : minLength;
    this.window = window;
    this.shift = new Uint8Array(FILTER_MASK + 1).fill(window - BLOCK + 1);
    for (const form of forms) {
      if (form.length < minLength) continue;
      const start = form.length - window;
      for (let at = start; at + BLOCK <= form.length; at++) {
        const index = blockHash(form, at);
        this.shift[index] = Math.min(this.shift[index] ?? 0, form.length - (at + BLOCK));
      }
      const hash = this.hashEndingAt(form, form.length);
      this.filter[hash & FILTER_MASK] = 1;
      const bucket = this.bySuffix.get(hash);
      if (bucket) bucket.push(form);
      else this.bySuffix.set(hash, [form]);
    }
    // Longest first, so the longest of two forms ending at one place wins.
    for (const bucket of this.bySuffix.values()) bucket.sort((x, y) => y.length - x.length);
    for (const secret of secrets) {
      const longest = Math.min(MAX_QUOTED_START, secret.length - 1);
      for (let length = MIN_QUOTED_START; length <= longest; length++) {
        const start = secret.slice(0, length);
        const starting = this.byStart.get(start);
        if (starting) starting.push(secret);
        else this.byStart.set(start, [secret]);
      }
    }
  }

  /** `text` with every form, and every starred quote of a secret, replaced by `replacement`. */
  redact(text: string, replacement: string): string {
    const replaced = replaceSpans(text, this.matches(text), replacement);
    return replaced.includes("***") ? this.redactStarredQuotes(replaced, replacement) : replaced;
  }

  private hashEndingAt(text: string, end: number): number {
    let hash = 0;
    for (let i = end - this.window; i < end; i++) {
      hash = (Math.imul(hash, HASH_BASE) + text.charCodeAt(i)) | 0;
    }
    return hash;
  }

  /** Every occurrence of a form, in the order they end; overlapping ones left to the caller. */
  private matches(text: string): Span[] {
    const found: Span[] = [];
    const { window, shift, filter } = this;
    for (let end = window; end <= text.length; ) {
      const jump = shift[blockHash(text, end - BLOCK)] ?? 0;
      if (jump > 0) {
        end += jump;
        continue;
      }
      const hash = this.hashEndingAt(text, end);
      if (filter[hash & FILTER_MASK] === 1) {
        for (const form of this.bySuffix.get(hash) ?? []) {
          if (form.length <= end && text.endsWith(form, end)) {
            found.push({ from: end - form.length, to: end });
            break;
          }
        }
      }
      end += 1;
    }
    return found;
  }

  /** Replaces every starred quote "<start of a secret>****<its last characters>". */
  private redactStarredQuotes(text: string, replacement: string): string {
    const spans: Span[] = [];
    for (const run of text.matchAll(STAR_RUN)) {
      const from = run.index;
      const to = from + run[0].length;
      const quote = this.quoteAround(text, from, to);
      if (quote) spans.push({ from: from - quote.before, to: to + quote.after });
    }
    return replaceSpans(text, spans, replacement);
  }

  /** How a star run at [from, to) quotes a known secret: the characters before and after it. */
  private quoteAround(text: string, from: number, to: number) {
    for (let before = Math.min(MAX_QUOTED_START, from); before >= MIN_QUOTED_START; before--) {
      const secrets = this.byStart.get(text.slice(from - before, from));
      if (!secrets) continue;
      // Many keys share a start ("sk-"): the one whose end follows the stars is the one quoted.
      let after = 0;
      for (const secret of secrets) {
        let length = Math.min(MAX_QUOTED_END, secret.length - before, text.length - to);
        while (length > after && !text.startsWith(secret.slice(-length), to)) length -= 1;
        after = Math.max(after, length);
        if (after === MAX_QUOTED_END) break;
      }
      return { before, after };
    }
    return undefined;
  }
}

/** `text` with each span replaced; of overlapping spans the one starting first (then longest) wins. */
function replaceSpans(text: string, spans: Span[], replacement: string): string {
  if (spans.length === 0) return text;
  spans.sort((x, y) => x.from - y.from || y.to - x.to);
  let result = "";
  let done = 0;
  for (const span of spans) {
    if (span.from < done) {
      // Overlapping the one kept before it: both are secret, so the kept one reaches further.
      if (span.to > done) done = span.to;
      continue;
    }
    result += text.slice(done, span.from) + replacement;
    done = span.to;
  }
  return result + text.slice(done);
}
