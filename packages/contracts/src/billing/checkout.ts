import { z } from "zod";
import { consentVersionField } from "./consent";
import { storableText } from "./fields";
import { checkoutPromotionCodeField } from "./promotions";
import {
  BILLING_MESSAGES,
  currencySchema,
  paymentProviderSchema,
  planIntervalSchema,
} from "./shared";

// Checkout (user-side section 7; sandbox: docs/decisions/0016).

/** `consentVersion`: the version of the consent text whose box the fan ticked (consent.ts). */
export const createPackageCheckoutSchema = z.object({
  packageId: z.uuid({ error: BILLING_MESSAGES.packageIdMissing }),
  consentVersion: consentVersionField,
  /** An optional promotion code (promotions.ts); blank: none. */
  promotionCode: checkoutPromotionCodeField,
});
export const createPlanCheckoutSchema = z.object({
  planId: z.uuid({ error: "Plan ID is missing" }),
  consentVersion: consentVersionField,
  /** An optional promotion code; it lowers the first payment only (docs/decisions/0083). */
  promotionCode: checkoutPromotionCodeField,
});
/** A plan change of a subscription in force: its renewal terms were agreed at its checkout. */
export const changePlanRequestSchema = z.object({
  planId: z.uuid({ error: "Plan ID is missing" }),
});

/** POST /api/payments/create-checkout-session and POST /api/subscriptions/create-checkout. */
export const checkoutResponseSchema = z.object({
  success: z.literal(true),
  /** The hosted checkout: Stripe Checkout, or the sandbox page of this app. */
  url: z.string(),
  sessionId: z.string(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

export const CHECKOUT_SESSION_STATUSES = ["open", "complete", "expired", "canceled"] as const;
/** A one-off payment (credits) or a subscription's first one. */
export const CHECKOUT_MODES = ["payment", "subscription"] as const;

/**
 * A checkout session as its owner sees it: the sandbox page and the return pages
 * (GET /api/payments/sandbox/sessions/{id}, GET /api/payments/checkout-sessions/{id}).
 */
export const checkoutSessionViewSchema = z.object({
  sessionId: z.string(),
  provider: paymentProviderSchema,
  mode: z.enum(CHECKOUT_MODES),
  /** open: waiting for payment; complete: paid (fulfilled says whether credits/plan landed). */
  status: z.enum(CHECKOUT_SESSION_STATUSES),
  paymentStatus: z.enum(["paid", "unpaid", "failed"]),
  fulfilled: z.boolean(),
  itemName: z.string(),
  description: z.string(),
  /** What is charged, major units (after the promotion code's discount). */
  amount: z.number(),
  /** The price before the promotion code, and what the code takes off (0: none). */
  amountBeforeDiscount: z.number(),
  discount: z.number(),
  promotionCode: z.string().nullable(),
  currency: currencySchema,
  /** Credits bought (packages) or granted per period (plans); null when none. */
  credits: z.number().int().nullable(),
  interval: planIntervalSchema.nullable(),
  intervalCount: z.number().int().nullable(),
  email: z.string(),
  successUrl: z.string(),
  cancelUrl: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type CheckoutSessionView = z.infer<typeof checkoutSessionViewSchema>;
export const checkoutSessionResponseSchema = z.object({
  success: z.literal(true),
  data: checkoutSessionViewSchema,
});
export const checkoutSessionParamsSchema = z.object({
  id: storableText("Session id", 200).pipe(
    z.string().regex(/^[A-Za-z0-9_]+$/, { error: "Invalid session id" }),
  ),
});

/** POST /api/payments/sandbox/sessions/{id}/pay: the card form of the sandbox page. */
export const sandboxPayRequestSchema = z.object({
  cardNumber: storableText("Card number", 40).transform((value) => value.replace(/[\s-]/g, "")),
  /** MM/YY or MM/YYYY. */
  expiry: storableText("Expiry", 10),
  cvc: storableText("CVC", 4),
});
export type SandboxPayRequest = z.input<typeof sandboxPayRequestSchema>;
/** Paid (or canceled): where the browser goes next (the success or cancel URL). */
export const sandboxRedirectResponseSchema = z.object({
  success: z.literal(true),
  redirectUrl: z.string(),
  data: checkoutSessionViewSchema,
});
