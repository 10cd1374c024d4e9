export type ProviderName = "OpenAI" | "Stripe" | "ElevenLabs";

/** A provider refused or could not be reached; `message` is the provider's own words. */
export class ProviderError extends Error {
  constructor(
    readonly provider: ProviderName,
    message: string,
    /** The provider's HTTP status, when it answered. */
    readonly status?: number,
  ) {
    super(message);
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
