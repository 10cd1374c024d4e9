import { bindFirst } from "../../lib/bind-first.ts";
import { lazy } from "../lazy.ts";
import { retrieveBalance } from "./stripe/balance.ts";
import {
  createPrice,
  createProduct,
  createPromotion,
  deactivatePrice,
  listProducts,
  retrievePrice,
  retrieveProduct,
  setPromotionCodeActive,
  updateProduct,
} from "./stripe/catalogue.ts";
import {
  checkoutSessionOfPaymentIntent,
  createCheckoutSession,
  retrieveCheckoutSession,
  retrievePaymentIntent,
} from "./stripe/checkout.ts";
import { createStripeClient, type StripeDeps, type StripeOptions } from "./stripe/client.ts";
import { changeInvoice, retrieveInvoice } from "./stripe/invoices.ts";
import { refund, retrieveCharge, retrieveDispute } from "./stripe/refunds.ts";
import {
  cancelAtPeriodEnd,
  cancelNow,
  changeSubscriptionPrice,
  previewPriceChange,
  resumeSubscription,
  retrieveSubscription,
} from "./stripe/subscriptions.ts";
import type { PaymentsProvider } from "./types.ts";

export { PRODUCT_KIND_KEY } from "./stripe/catalogue.ts";
export { createStripeClient, type StripeOptions } from "./stripe/client.ts";
export {
  paymentIntentOfEvent,
  verifyStripeWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
} from "./stripe/events.ts";

/**
 * Payments on Stripe's SDK: its use cases, one file per kind under stripe/ (decision 0092),
 * bound to one lazily made client.
 */
export function createStripePayments(options: StripeOptions): PaymentsProvider {
  const deps: StripeDeps = { stripe: lazy(() => createStripeClient(options)), options };
  return {
    mode: "stripe",
    catalogue: bindFirst(deps, {
      createProduct,
      updateProduct,
      retrieveProduct,
      listProducts,
      createPrice,
      retrievePrice,
      deactivatePrice,
      createPromotion,
      setPromotionCodeActive,
    }),
    ...bindFirst(deps, {
      retrieveBalance,
      // A buyer's checkout and the payment it makes (stripe/checkout.ts).
      createCheckoutSession,
      retrieveCheckoutSession,
      retrievePaymentIntent,
      checkoutSessionOfPaymentIntent,
      // A plan's subscription (stripe/subscriptions.ts) and its invoices (stripe/invoices.ts).
      retrieveSubscription,
      previewPriceChange,
      changeSubscriptionPrice,
      cancelAtPeriodEnd,
      resumeSubscription,
      cancelNow,
      retrieveInvoice,
      changeInvoice,
      // Refunds, charges and disputes (stripe/refunds.ts).
      refund,
      retrieveCharge,
      retrieveDispute,
    }),
  };
}
