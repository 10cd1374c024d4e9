import { z } from "zod";

// TEMPORARY: the answers' shapes from the spec, until billing-server's contracts land.
const pagination = z.object({
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  pages: z.number(),
});

export const creditPackageSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string().nullable().optional(),
  credits: z.number(),
  price: z.number(),
  currency: z.string(),
  discount: z.number(),
  isActive: z.boolean(),
});
export type CreditPackage = z.infer<typeof creditPackageSchema>;
export const creditPackagesResponseSchema = z.object({ packages: z.array(creditPackageSchema) });

export const creditBalanceResponseSchema = z.object({ available: z.number() });

export const transactionSchema = z.object({
  _id: z.string(),
  transactionDate: z.string(),
  credits: z.number().nullable().optional(),
  amount: z.number(),
  currency: z.string(),
  status: z.string(),
  stripePaymentId: z.string().nullable().optional(),
  planName: z.string().nullable().optional(),
  metadata: z
    .object({
      packageName: z.string().nullable().optional(),
      invoiceNumber: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type Transaction = z.infer<typeof transactionSchema>;
export const transactionHistoryResponseSchema = z.object({
  transactions: z.array(transactionSchema),
  pagination,
});

export const subscriptionPlanSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string().nullable().optional(),
  price: z.number(),
  currency: z.string(),
  interval: z.enum(["day", "week", "month", "year"]),
  intervalCount: z.number(),
  features: z.array(z.string()),
});
export type SubscriptionPlan = z.infer<typeof subscriptionPlanSchema>;
export const activePlansResponseSchema = z.object({ data: z.array(subscriptionPlanSchema) });

export const currentSubscriptionSchema = z.object({
  status: z.enum(["active", "canceled", "inactive"]),
  plan: z.object({ _id: z.string(), name: z.string(), price: z.number() }).nullable(),
  endDate: z.string().nullable(),
  autoRenew: z.boolean(),
  cancelAtPeriodEnd: z.boolean(),
});
export type CurrentSubscription = z.infer<typeof currentSubscriptionSchema>;
export const mySubscriptionResponseSchema = z.object({
  data: currentSubscriptionSchema.nullable(),
});

export const checkoutUrlResponseSchema = z.object({ url: z.string() });

export const planChangeResultSchema = z.object({
  message: z.string(),
  subscription: z.object({
    proratedAmount: z.number().nullable(),
    currency: z.string(),
  }),
});
export type PlanChangeResult = z.infer<typeof planChangeResultSchema>;

/** TEMPORARY: the state of one checkout for the return page. */
export const checkoutSessionStatusSchema = z.object({
  status: z.enum(["open", "fulfilled", "failed", "expired"]),
  summary: z.string(),
});

/** TEMPORARY: the sandbox checkout session. */
export const sandboxSessionSchema = z.object({
  id: z.string(),
  mode: z.enum(["payment", "subscription"]),
  productName: z.string(),
  description: z.string().nullable(),
  credits: z.number().nullable(),
  amount: z.number(),
  currency: z.string(),
  status: z.enum(["open", "complete", "expired"]),
  successUrl: z.string(),
  cancelUrl: z.string(),
});
export type SandboxSession = z.infer<typeof sandboxSessionSchema>;
export const sandboxSessionResponseSchema = z.object({ data: sandboxSessionSchema });

export const sandboxPayRequestSchema = z.object({
  cardNumber: z
    .string()
    .transform((v) => v.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{12,19}$/, { error: "Enter a valid card number" })),
  expiry: z
    .string()
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/, { error: "Enter the expiry as MM / YY" }),
  cvc: z
    .string()
    .trim()
    .regex(/^\d{3,4}$/, { error: "Enter the 3 or 4 digit CVC" }),
});
export type SandboxPayRequest = z.output<typeof sandboxPayRequestSchema>;
export const sandboxRedirectResponseSchema = z.object({ url: z.string() });
