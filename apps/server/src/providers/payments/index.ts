export {
  CardError,
  checkCard,
  createSandboxPayments,
  periodEnd,
  prorationDue,
  type RenewalOutcome,
  SANDBOX_CARD_DECLINED,
  SANDBOX_CARD_SUCCESS,
  type SandboxCard,
  type SandboxOptions,
  type SandboxPayments,
  SessionClosedError,
  sandboxId,
} from "./sandbox.ts";
export {
  createStripeClient,
  createStripePayments,
  PRODUCT_KIND_KEY,
  paymentIntentOfEvent,
  type StripeOptions,
  verifyStripeWebhook,
} from "./stripe.ts";
export type * from "./types.ts";
