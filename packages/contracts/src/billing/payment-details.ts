import { z } from "zod";
import { checkoutConsentSchema } from "./consent";
import { paymentRefundSchema } from "./refunds";
import { currencySchema, paymentKindSchema, transactionStatusSchema } from "./shared";

/**
 * GET /api/admin/payments/{id}: one payment's details for the admin's transaction screens: the
 * consent the fan gave at its checkout (a renewal points back to its plan's checkout), and every
 * refund and withdrawal of it.
 */
export const adminPaymentDetailsSchema = z.object({
  payment: z.object({
    _id: z.string(),
    kind: paymentKindSchema,
    itemName: z.string(),
    status: transactionStatusSchema,
    amount: z.number(),
    refundedAmount: z.number(),
    currency: currencySchema,
    credits: z.number().int(),
    transactionDate: z.string(),
    withdrawnAt: z.string().nullable(),
  }),
  consent: checkoutConsentSchema.nullable(),
  refunds: z.array(paymentRefundSchema),
});
export type AdminPaymentDetails = z.infer<typeof adminPaymentDetailsSchema>;
export const adminPaymentDetailsResponseSchema = z.object({
  success: z.literal(true),
  data: adminPaymentDetailsSchema,
});
