import {
  createStripeEmulator,
  type EmulatorStore,
  emulatorFetch,
  type Json,
  type StripeEmulator,
} from "@twinline/stripe-emulator";
import { createStripePayments } from "./stripe.ts";
import type { PaymentsProvider } from "./types.ts";

/** The key the sandbox's SDK and its emulator share: no real Stripe account answers it. */
export const SANDBOX_SECRET_KEY = "sk_test_twinline_sandbox";

export interface EmulatedPaymentsOptions {
  /** Stripe's objects: the sandbox's table (every instance sees one state), or memory. */
  store: EmulatorStore;
  /** The sandbox's clock (the billing clock). */
  now: () => Date;
}

/** The provider and the emulator behind it (its test controls: a buyer pays, a renewal...). */
export interface EmulatedPayments {
  payments: PaymentsProvider;
  emulator: StripeEmulator;
}

/**
 * The Stripe provider on the Stripe emulator in-process (decision 0094, phase 2): every money
 * path goes through the official SDK, and Stripe's behaviour is written once, in the emulator.
 * Its ids say `sandbox` (`cs_sandbox_*`, `sub_sandbox_*`), and the buyer pays on this app's own
 * card page, at the origin they return to (their session is there).
 */
export function createEmulatedPayments(options: EmulatedPaymentsOptions): EmulatedPayments {
  const emulator = createStripeEmulator({
    secretKey: SANDBOX_SECRET_KEY,
    store: options.store,
    now: () => options.now().getTime(),
    idTag: "sandbox",
    checkoutUrl: (session: Json) =>
      `${new URL(String(session.success_url)).origin}/checkout/sandbox/${session.id}`,
  });
  const payments = createStripePayments({
    secretKey: SANDBOX_SECRET_KEY,
    fetch: emulatorFetch(emulator),
    now: options.now,
  });
  return { payments, emulator };
}
