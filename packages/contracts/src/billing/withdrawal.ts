import { z } from "zod";
import { REFUND_STATUSES } from "./refunds";
import { currencySchema, paymentKindSchema } from "./shared";

// Withdrawal from a purchase (issue 26, item 5; docs/decisions/0065): from the transactions
// page, in two steps (GET the quote, POST to withdraw), within 14 days of the purchase.

/** How long after a purchase the fan may withdraw from it. */
export const WITHDRAWAL_DAYS = 14;
export const WITHDRAWAL_WINDOW_MS = WITHDRAWAL_DAYS * 24 * 60 * 60 * 1000;

/** The last moment a purchase made at `purchasedAt` may be withdrawn from. */
export const withdrawalDeadline = (purchasedAt: Date | string): Date =>
  new Date(new Date(purchasedAt).getTime() + WITHDRAWAL_WINDOW_MS);

export const WITHDRAWAL_MESSAGES = {
  paymentNotFound: "Purchase not found",
  tooLate: `The ${WITHDRAWAL_DAYS} days to withdraw from this purchase have passed`,
  notWithdrawable: "Only a paid purchase can be withdrawn from",
  notCurrentPeriod: "Only the current period of the plan you hold can be withdrawn from",
  nothingLeft: "Nothing of this purchase is left to give back: its credits are used",
  alreadyWithdrawn: "You have already withdrawn from this purchase",
  confirmRequired: "Confirm the withdrawal",
  withdrawn: "You have withdrawn from this purchase: the refund is on its way",
  refundRefused: "The payment provider refused the refund: nothing was changed",
} as const;

export const withdrawalParamsSchema = z.object({
  id: z.uuid({ error: "Invalid purchase id" }),
});

/** Step 2: the fan confirmed (a double click or a retry withdraws once). */
export const withdrawRequestSchema = z.object({
  confirm: z.literal(true, { error: WITHDRAWAL_MESSAGES.confirmRequired }),
});

/** Step 1: what withdrawing would do, to confirm. */
export const withdrawalQuoteSchema = z.object({
  paymentId: z.string(),
  kind: paymentKindSchema,
  itemName: z.string(),
  /** Money given back, major units (rounded to the fan's favour). */
  refundAmount: z.number(),
  currency: currencySchema,
  /** Credits taken back from the balance. */
  creditsTakenBack: z.number().int(),
  /** Credits of the purchase already used (kept, and paid for). */
  creditsUsed: z.number().int(),
  /** A plan: it ends at once. */
  endsPlan: z.boolean(),
  /** The last moment to withdraw. */
  deadline: z.string(),
});
export type WithdrawalQuote = z.infer<typeof withdrawalQuoteSchema>;
export const withdrawalQuoteResponseSchema = z.object({
  success: z.literal(true),
  data: withdrawalQuoteSchema,
});

export const withdrawalResultSchema = z.object({
  _id: z.string(),
  paymentId: z.string(),
  status: z.enum(REFUND_STATUSES),
  refundAmount: z.number(),
  currency: currencySchema,
  creditsTakenBack: z.number().int(),
  endsPlan: z.boolean(),
  /** When the withdrawal was made (the e-mail states it). */
  withdrawnAt: z.string(),
});
export type WithdrawalResult = z.infer<typeof withdrawalResultSchema>;
export const withdrawResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ withdrawal: withdrawalResultSchema, balance: z.number().int() }),
});
export type WithdrawResponse = z.infer<typeof withdrawResponseSchema>;
