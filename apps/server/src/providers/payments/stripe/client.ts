import type Stripe from "stripe";
import { ProviderError, toProviderError, unreachable } from "../../errors.ts";
import { lazy } from "../../lazy.ts";

export interface StripeOptions {
  secretKey: string;
  /** STRIPE_API_BASE (tests point the SDK at a local server); unset: api.stripe.com. */
  apiBase?: string | undefined;
  /**
   * The SDK's requests go to this `fetch` instead of the network: the sandbox hands it the
   * Stripe emulator in-process (emulatorFetch, decision 0094).
   */
  fetch?: typeof fetch | undefined;
  /** The clock checkout expiries count from (the sandbox's billing clock); unset: Date.now. */
  now?: (() => Date) | undefined;
}

/** What every Stripe use case works with (decision 0092): the SDK client, made on first use. */
export interface StripeDeps {
  stripe: () => Promise<Stripe>;
  /** The options it was made with; their `now` is read at each call (nowSeconds). */
  options: StripeOptions;
}

export const loadStripe = lazy(async () => (await import("stripe")).default);

/** A Stripe SDK error in Stripe's own words. */
async function stripeError(error: unknown): Promise<ProviderError> {
  const StripeSdk = await loadStripe();
  if (error instanceof StripeSdk.errors.StripeConnectionError) return unreachable("Stripe", error);
  if (error instanceof StripeSdk.errors.StripeError) {
    return new ProviderError("Stripe", error.message, error.statusCode);
  }
  return toProviderError("Stripe", error);
}

async function isMissing(error: unknown): Promise<boolean> {
  const StripeSdk = await loadStripe();
  return error instanceof StripeSdk.errors.StripeError && error.statusCode === 404;
}

export async function createStripeClient(options: StripeOptions): Promise<Stripe> {
  const StripeSdk = await loadStripe();
  const base = options.apiBase ? new URL(options.apiBase) : undefined;
  return new StripeSdk(options.secretKey, {
    maxNetworkRetries: 1,
    timeout: 30_000,
    telemetry: false,
    ...(options.fetch ? { httpClient: StripeSdk.createFetchHttpClient(options.fetch) } : {}),
    ...(base
      ? {
          host: base.hostname,
          protocol: base.protocol === "http:" ? "http" : "https",
          ...(base.port ? { port: Number(base.port) } : {}),
        }
      : {}),
  });
}

/** Runs a Stripe call, mapping its errors. */
export async function call<T>(deps: StripeDeps, run: (client: Stripe) => Promise<T>): Promise<T> {
  try {
    return await run(await deps.stripe());
  } catch (error) {
    throw await stripeError(error);
  }
}

/** Runs a Stripe call, mapping its errors; a 404 (missing object) answers null. */
export async function orNull<T>(
  deps: StripeDeps,
  run: (client: Stripe) => Promise<T>,
): Promise<T | null> {
  try {
    return await run(await deps.stripe());
  } catch (error) {
    if (await isMissing(error)) return null;
    throw await stripeError(error);
  }
}

/** Now in Unix seconds, by the options' clock. */
export const nowSeconds = (deps: StripeDeps): number =>
  Math.floor((deps.options.now?.() ?? new Date()).getTime() / 1000);
