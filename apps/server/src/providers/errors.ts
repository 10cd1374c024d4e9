import { MASK_CHAR } from "@twinline/contracts";
import { redactSecrets } from "../lib/secret-values.ts";

export type ProviderName = "OpenAI" | "Stripe" | "ElevenLabs";

const MAX_MESSAGE_LENGTH = 300;

// What a key looks like in a provider's words: OpenAI and Stripe quote the key they were given,
// partly starred ("sk-abc***0000", "sk_test_********0000"). Prefixed keys, and any long run of
// key characters (an ElevenLabs key has no prefix).
const PREFIXED_KEY = /\b(?:sk|pk|rk|whsec)[-_][^\s"'`,;.)]*/g;
const LONG_TOKEN = /[A-Za-z0-9_*•-]{24,}/g;

/**
 * A provider's message as it may reach an answer or a log line: every key (even partly starred)
 * replaced by its prefix and a mask, control characters gone, at most 300 characters.
 */
export function safeProviderMessage(message: string): string {
  // By value first: the shape rules below would cut a key with `.` or a space into fragments.
  const masked = redactSecrets(message)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to drop them
    .replace(/[\u0000-\u001F\u007F-\u009F]+/g, " ")
    .replace(
      PREFIXED_KEY,
      (key) => `${/^[a-z]+[-_](?:(?:live|test)_)?/.exec(key)?.[0] ?? ""}${MASK_CHAR.repeat(8)}`,
    )
    .replace(LONG_TOKEN, MASK_CHAR.repeat(8))
    .trim();
  return masked.length > MAX_MESSAGE_LENGTH
    ? `${masked.slice(0, MAX_MESSAGE_LENGTH - 1)}…`
    : masked || "The provider refused the request";
}

/**
 * A provider refused or could not be reached; `message` is the provider's own words, reduced to
 * a safe message (safeProviderMessage: no key, not even part of one) as it is made, so that no
 * answer and no log line can carry more.
 */
export class ProviderError extends Error {
  constructor(
    readonly provider: ProviderName,
    message: string,
    /** The provider's HTTP status, when it answered. */
    readonly status?: number,
  ) {
    super(safeProviderMessage(message));
    this.name = "ProviderError";
  }
}

/** The provider cannot do this in its current mode (the offline TTS cannot clone a voice). */
export class ProviderUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderUnavailableError";
  }
}

type Caused = { message?: string; code?: string; cause?: Caused };

/** The innermost cause's code or message ("ECONNREFUSED", "getaddrinfo ENOTFOUND ..."). */
function rootCause(error: Caused): string {
  let current: Caused = error;
  for (let depth = 0; current.cause && depth < 5; depth++) current = current.cause;
  return current.code ?? current.message ?? error.message ?? "connection failed";
}

/** The provider could not be reached: "Could not reach {Provider}: ECONNREFUSED". */
export const unreachable = (provider: ProviderName, error: unknown) =>
  new ProviderError(provider, `Could not reach ${provider}: ${rootCause(error as Caused)}`);

/** The first message found in a provider's error body (message, detail or error, nested). */
export function messageIn(body: unknown): string | undefined {
  if (typeof body === "string") return body || undefined;
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ["message", "detail", "error"]) {
    const found = messageIn(record[key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * What is left once a provider's own error classes are mapped (see each implementation): ours
 * pass through, a fetch TypeError is a connection failure, anything else keeps its message.
 */
export function toProviderError(provider: ProviderName, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof TypeError) return unreachable(provider, error);
  return new ProviderError(provider, error instanceof Error ? error.message : String(error));
}
