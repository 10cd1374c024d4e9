export { createSandboxPayments } from "./sandbox.ts";
export { createStripeClient, createStripePayments, type StripeOptions } from "./stripe.ts";
export type { BalanceAmount, PaymentsProvider } from "./types.ts";
