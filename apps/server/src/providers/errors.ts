import { ElevenLabsError, ElevenLabsTimeoutError } from "@elevenlabs/elevenlabs-js";
import OpenAI from "openai";
import Stripe from "stripe";

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

const reach = (provider: ProviderName, error: unknown) =>
  new ProviderError(provider, `Could not reach ${provider}: ${rootCause(error as Caused)}`);

function messageIn(body: unknown): string | undefined {
  if (typeof body === "string") return body || undefined;
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ["message", "detail", "error"]) {
    const found = messageIn(record[key]);
    if (found) return found;
  }
  return undefined;
}

/** Any error of an SDK call as a ProviderError carrying the provider's own message. */
export function toProviderError(provider: ProviderName, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof OpenAI.APIConnectionError) return reach(provider, error);
  if (error instanceof OpenAI.APIError) {
    const message = messageIn(error.error) ?? error.message;
    return new ProviderError(provider, message, error.status);
  }
  if (error instanceof Stripe.errors.StripeConnectionError) return reach(provider, error);
  if (error instanceof Stripe.errors.StripeError) {
    return new ProviderError(provider, error.message, error.statusCode);
  }
  if (error instanceof ElevenLabsTimeoutError) return reach(provider, error);
  if (error instanceof ElevenLabsError) {
    if (error.statusCode === undefined) return reach(provider, error);
    return new ProviderError(provider, messageIn(error.body) ?? error.message, error.statusCode);
  }
  if (error instanceof TypeError) return reach(provider, error);
  return new ProviderError(provider, error instanceof Error ? error.message : String(error));
}
