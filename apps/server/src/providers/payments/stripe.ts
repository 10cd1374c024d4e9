import type Stripe from "stripe";
import { ProviderError, toProviderError, unreachable } from "../errors.ts";
import { lazy } from "../lazy.ts";
import type { PaymentsProvider } from "./types.ts";

export interface StripeOptions {
  secretKey: string;
  /** STRIPE_API_BASE (tests point the SDK at a local server); unset: api.stripe.com. */
  apiBase?: string | undefined;
}

const loadStripe = lazy(async () => (await import("stripe")).default);

/** A Stripe SDK error in Stripe's own words. */
async function stripeError(error: unknown): Promise<ProviderError> {
  const StripeSdk = await loadStripe();
  if (error instanceof StripeSdk.errors.StripeConnectionError) return unreachable("Stripe", error);
  if (error instanceof StripeSdk.errors.StripeError) {
    return new ProviderError("Stripe", error.message, error.statusCode);
  }
  return toProviderError("Stripe", error);
}

export async function createStripeClient(options: StripeOptions): Promise<Stripe> {
  const StripeSdk = await loadStripe();
  const base = options.apiBase ? new URL(options.apiBase) : undefined;
  return new StripeSdk(options.secretKey, {
    maxNetworkRetries: 1,
    timeout: 30_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          protocol: base.protocol === "http:" ? "http" : "https",
          ...(base.port ? { port: Number(base.port) } : {}),
        }
      : {}),
  });
}

export function createStripePayments(options: StripeOptions): PaymentsProvider {
  const stripe = lazy(() => createStripeClient(options));
  return {
    mode: "stripe",
    async retrieveBalance() {
      try {
        const balance = await (await stripe()).balance.retrieve();
        return balance.available.map(({ amount, currency }) => ({ amount, currency }));
      } catch (error) {
        throw await stripeError(error);
      }
    },
  };
}
