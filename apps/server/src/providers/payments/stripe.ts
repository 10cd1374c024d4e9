import Stripe from "stripe";
import { toProviderError } from "../errors.ts";
import type { PaymentsProvider } from "./types.ts";

export interface StripeOptions {
  secretKey: string;
  /** STRIPE_API_BASE (tests point the SDK at a local server); unset: api.stripe.com. */
  apiBase?: string | undefined;
}

export function createStripeClient(options: StripeOptions): Stripe {
  const base = options.apiBase ? new URL(options.apiBase) : undefined;
  return new Stripe(options.secretKey, {
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
  const stripe = createStripeClient(options);
  return {
    mode: "stripe",
    async retrieveBalance() {
      try {
        const balance = await stripe.balance.retrieve();
        return balance.available.map(({ amount, currency }) => ({ amount, currency }));
      } catch (error) {
        throw toProviderError("Stripe", error);
      }
    },
  };
}
