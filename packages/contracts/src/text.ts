import { z } from "zod";

/**
 * Strings that reach the database: PostgreSQL refuses a NUL character in text and jsonb, and an
 * unpaired UTF-16 surrogate in jsonb (a 500 if it got there). Every contract string that is
 * stored or queried goes through `safeText()` (or `isSafeText` in a refinement), so the answer is
 * a 400 naming the field instead.
 */
export const TEXT_MESSAGES = {
  unsafe: "must not contain NUL characters or unpaired surrogates",
  controlCharacter: "must not contain control characters",
} as const;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** No NUL character and no unpaired surrogate. */
export function isSafeText(value: string): boolean {
  return !value.includes("\0") && !LONE_SURROGATE.test(value);
}

/** No C0/C1 control character at all (keys, ids, single-line values). */
export function hasNoControlCharacters(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
  return isSafeText(value) && !/[\u0000-\u001F\u007F-\u009F]/.test(value);
}

/** A string the database can store: `z.string()` refusing NUL and unpaired surrogates. */
export function safeText(message: string = TEXT_MESSAGES.unsafe) {
  return z.string().refine(isSafeText, { error: message, abort: true });
}

/** A single-line string (a key, an id): `safeText()` that refuses every control character too. */
export function singleLineText(message: string = TEXT_MESSAGES.controlCharacter) {
  return z.string().refine(hasNoControlCharacters, { error: message, abort: true });
}
