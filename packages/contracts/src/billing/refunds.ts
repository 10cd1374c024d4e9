import { z } from "zod";
import { pagedListResponse } from "../paged-list";
import { safeText, singleLineText } from "../text";
import { currencySchema, transactionStatusSchema } from "./shared";
import { currentSubscriptionSchema } from "./subscriptions";

// The operator's money tools (issue 16, docs/decisions/0050): refunds, credit adjustments and
// subscription actions, each from the admin's screens.

export const MONEY_TOOLS_LIMITS = {
  reasonMax: 500,
  /** The largest grant or take-back in one adjustment. */
  adjustmentMax: 1_000_000,
} as const;

export const MONEY_TOOLS_MESSAGES = {
  reasonRequired: "A reason is required",
  reasonTooLong: `The reason must be at most ${MONEY_TOOLS_LIMITS.reasonMax} characters`,
  amountPositive: "The refund amount must be greater than zero",
  amountNumber: "The refund amount must be a number",
  amountTwoDecimals: "The refund amount has at most two decimals",
  amountTooLarge: "The refund amount is more than what is left to refund",
  deltaWhole: "The credit change must be a whole number",
  deltaNonZero: "The credit change must not be zero",
  deltaRange: `The credit change must be between -${MONEY_TOOLS_LIMITS.adjustmentMax} and ${MONEY_TOOLS_LIMITS.adjustmentMax}`,
  belowZero: "The user's balance cannot go below zero",
  paymentNotFound: "Payment not found",
  notRefundable: "Only a successful payment can be refunded",
  nothingLeft: "This payment has been refunded in full already",
  noProviderPayment: "This payment has no provider payment id to refund",
  stripeNotConfigured: "Stripe is not configured: this payment cannot be refunded",
  refunded: "The payment was refunded",
  adjusted: "The credits were changed",
  userNotFound: "User not found",
  noSubscription: "This user has no active subscription",
  notCanceling: "This subscription is not set to cancel",
  subscriptionCanceledAtPeriodEnd: "The subscription will be canceled at the end of the period",
  subscriptionCanceledNow: "The subscription was canceled",
  subscriptionResumed: "The subscription was resumed",
  refundedAndEnded: "The payment was refunded and the subscription ended",
  balanceFull:
    "The credit balance cannot hold that many credits (at most 2,147,483,647): use some credits first",
  notLatestPlanPayment:
    "Only the latest payment of the subscription in force can end it: cancel the subscription instead",
  planCheckoutOpen:
    "A plan checkout is already open for this account. Finish or cancel it, or manage your subscription instead.",
  duplicateRefunded:
    "You already have a subscription: this second payment was refunded automatically.",
} as const;

const reason = safeText()
  .transform((value) => value.trim())
  .pipe(
    z
      .string()
      .min(1, { error: MONEY_TOOLS_MESSAGES.reasonRequired })
      .max(MONEY_TOOLS_LIMITS.reasonMax, { error: MONEY_TOOLS_MESSAGES.reasonTooLong }),
  );

/** A client's id for one submit of a dialog: a double click or a retry applies once. */
const requestId = singleLineText()
  .pipe(z.uuid({ error: "requestId must be a UUID" }))
  .optional();

export const paymentIdParamsSchema = z.object({ id: z.uuid({ error: "Invalid payment id" }) });

/** POST /api/admin/payments/{id}/refund. No amount: whatever is left to refund. */
export const adminRefundRequestSchema = z.object({
  amount: z
    .number({ error: MONEY_TOOLS_MESSAGES.amountNumber })
    .refine(Number.isFinite, { error: MONEY_TOOLS_MESSAGES.amountNumber })
    .positive({ error: MONEY_TOOLS_MESSAGES.amountPositive })
    .max(999_999.99, { error: MONEY_TOOLS_MESSAGES.amountTooLarge })
    .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, {
      error: MONEY_TOOLS_MESSAGES.amountTwoDecimals,
    })
    .optional(),
  reason,
  requestId,
  /**
   * Also end the subscription now (the latest payment of the plan in force only): refunding a
   * plan's payment does not stop the plan renewing by itself (issue 24).
   */
  endSubscription: z.boolean({ error: "endSubscription must be true or false" }).optional(),
});
export type AdminRefundRequest = z.infer<typeof adminRefundRequestSchema>;

export const REFUND_STATUSES = ["pending", "succeeded", "failed"] as const;

export const REFUND_KINDS = [
  "admin",
  "provider",
  "dispute",
  "duplicate_subscription",
  "failed_payment",
  "withdrawal",
] as const;

export const paymentRefundSchema = z.object({
  _id: z.string(),
  paymentId: z.string().nullable(),
  kind: z.enum(REFUND_KINDS),
  status: z.enum(REFUND_STATUSES),
  amount: z.number(),
  currency: currencySchema,
  reason: z.string(),
  creditsTaken: z.number().int(),
  /** Credits the user no longer had when the refund took them back. */
  creditsShortfall: z.number().int(),
  providerRefundId: z.string().nullable(),
  createdAt: z.string(),
});
export type PaymentRefund = z.infer<typeof paymentRefundSchema>;

export const adminRefundResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    refund: paymentRefundSchema,
    payment: z.object({
      _id: z.string(),
      status: transactionStatusSchema,
      amount: z.number(),
      refundedAmount: z.number(),
      currency: currencySchema,
    }),
    balance: z.number().int(),
    /** The subscription after it was ended (endSubscription), else absent. */
    subscription: currentSubscriptionSchema.optional(),
  }),
});
export type AdminRefundResponse = z.infer<typeof adminRefundResponseSchema>;

/** POST /api/admin/users/{id}/credits: ledger kind admin_adjustment. */
export const adminCreditAdjustmentRequestSchema = z.object({
  delta: z
    .number({ error: MONEY_TOOLS_MESSAGES.deltaWhole })
    .int({ error: MONEY_TOOLS_MESSAGES.deltaWhole })
    .min(-MONEY_TOOLS_LIMITS.adjustmentMax, { error: MONEY_TOOLS_MESSAGES.deltaRange })
    .max(MONEY_TOOLS_LIMITS.adjustmentMax, { error: MONEY_TOOLS_MESSAGES.deltaRange })
    .refine((value) => value !== 0, { error: MONEY_TOOLS_MESSAGES.deltaNonZero }),
  reason,
  requestId,
});
export type AdminCreditAdjustmentRequest = z.infer<typeof adminCreditAdjustmentRequestSchema>;

export const adminCreditAdjustmentResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ balance: z.number().int(), delta: z.number().int(), applied: z.boolean() }),
});
export type AdminCreditAdjustmentResponse = z.infer<typeof adminCreditAdjustmentResponseSchema>;

/** POST /api/admin/users/{id}/subscription/cancel. */
export const adminCancelSubscriptionRequestSchema = z.object({
  when: z.enum(["period_end", "now"], { error: "when must be period_end or now" }),
  /** With `now`: give back the unused part of the period's payment. */
  refundUnused: z.boolean().default(false),
  reason,
});
export type AdminCancelSubscriptionRequest = z.infer<typeof adminCancelSubscriptionRequestSchema>;

export const adminResumeSubscriptionRequestSchema = z.object({ reason });

export const adminSubscriptionActionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    subscription: currentSubscriptionSchema,
    refund: paymentRefundSchema.nullable(),
  }),
});
export type AdminSubscriptionActionResponse = z.infer<typeof adminSubscriptionActionResponseSchema>;

// The user's credit history: every ledger movement (GET /api/users/credit-history).

export const CREDIT_MOVEMENT_KINDS = [
  "grant",
  "purchase",
  "subscription_grant",
  "call_minute",
  "admin_adjustment",
  "refund",
] as const;

export const creditMovementSchema = z.object({
  _id: z.string(),
  kind: z.enum(CREDIT_MOVEMENT_KINDS),
  amount: z.number().int(),
  balanceAfter: z.number().int(),
  /** The operator's reason (adjustments, refunds); null otherwise. */
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type CreditMovementView = z.infer<typeof creditMovementSchema>;

export const creditHistoryResponseSchema = pagedListResponse(creditMovementSchema);
export type CreditHistoryResponse = z.infer<typeof creditHistoryResponseSchema>;
