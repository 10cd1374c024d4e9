import { z } from "zod";

// TEMPORARY: the admin answers' and forms' shapes from the spec, until billing-server's contracts land.
export const CURRENCIES = ["usd", "eur", "gbp", "inr"] as const;
export const INTERVALS = ["day", "week", "month", "year"] as const;

const pagination = z.object({
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  pages: z.number(),
});

export const adminPlanSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  price: z.number(),
  currency: z.enum(CURRENCIES),
  interval: z.enum(INTERVALS),
  intervalCount: z.number(),
  features: z.array(z.string()),
  isActive: z.boolean(),
  stripeProductId: z.string().nullable(),
  stripePriceId: z.string().nullable(),
});
export type AdminPlan = z.infer<typeof adminPlanSchema>;
export const adminPlansResponseSchema = z.object({ data: z.array(adminPlanSchema) });

export const planFormSchema = z.object({
  name: z.string().trim().min(1, { error: "Plan name is required" }),
  description: z.string(),
  price: z.number({ error: "Price is required" }).min(0, { error: "Price cannot be negative" }),
  currency: z.enum(CURRENCIES),
  interval: z.enum(INTERVALS),
  intervalCount: z.number().int().min(1, { error: "Interval count must be at least 1" }),
  features: z.array(z.string()),
  isActive: z.boolean(),
});
export type PlanForm = z.infer<typeof planFormSchema>;

export const adminPackageSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  credits: z.number(),
  price: z.number(),
  currency: z.enum(CURRENCIES),
  discount: z.number(),
  isActive: z.boolean(),
  stripeProductId: z.string().nullable(),
  stripePriceId: z.string().nullable(),
});
export type AdminPackage = z.infer<typeof adminPackageSchema>;
export const adminPackagesResponseSchema = z.object({ packages: z.array(adminPackageSchema) });

export const packageFormSchema = z.object({
  name: z.string().trim().min(1, { error: "Package name is required" }),
  description: z.string(),
  credits: z.number().int().gt(0, { error: "Credits must be greater than zero" }),
  price: z.number().min(0, { error: "Price cannot be negative" }),
  currency: z.enum(CURRENCIES),
  discount: z.number().min(0).max(100),
  isActive: z.boolean(),
});
export type PackageForm = z.infer<typeof packageFormSchema>;

export const messageResponseSchema = z.object({ message: z.string().optional() }).loose();

const populatedUser = z
  .object({
    _id: z.string(),
    name: z.string(),
    email: z.string(),
    profileImage: z.string().nullable(),
  })
  .nullable();

export const adminCreditTransactionSchema = z.object({
  _id: z.string(),
  transactionDate: z.string(),
  userId: populatedUser,
  credits: z.number(),
  amount: z.number(),
  currency: z.string(),
  status: z.string(),
  metadata: z.object({ packageName: z.string().nullable().optional() }).nullable().optional(),
  stripePaymentId: z.string().nullable(),
});
export type AdminCreditTransaction = z.infer<typeof adminCreditTransactionSchema>;
export const adminCreditTransactionsResponseSchema = z.object({
  data: z.array(adminCreditTransactionSchema),
  pagination,
});

export const adminSubscriptionTransactionSchema = z.object({
  _id: z.string(),
  transactionDate: z.string(),
  userId: populatedUser,
  planId: z.object({ _id: z.string(), name: z.string() }).nullable().optional(),
  planName: z.string().nullable().optional(),
  amount: z.number(),
  currency: z.string(),
  status: z.string(),
  stripePaymentId: z.string().nullable().optional(),
  invoiceId: z.string().nullable().optional(),
});
export type AdminSubscriptionTransaction = z.infer<typeof adminSubscriptionTransactionSchema>;
export const adminSubscriptionTransactionsResponseSchema = z.object({
  data: z.array(adminSubscriptionTransactionSchema),
  pagination,
});

export const subscriptionEventSchema = z.object({
  _id: z.string(),
  timestamp: z.string(),
  userId: populatedUser,
  planId: z.object({ _id: z.string(), name: z.string() }).nullable().optional(),
  eventType: z.string(),
  status: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  autoRenew: z.boolean(),
  stripeSubscriptionId: z.string().nullable(),
});
export type SubscriptionEvent = z.infer<typeof subscriptionEventSchema>;
export const subscriptionHistoryResponseSchema = z.object({
  data: z.array(subscriptionEventSchema),
  pagination,
});

const metric = z.object({ value: z.number() });
export const revenueResponseSchema = z.object({
  data: z.object({
    todayRevenue: metric,
    yesterdayRevenue: metric,
    thisMonthRevenue: metric,
    lastMonthRevenue: metric,
  }),
});

export const transactionsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().default(10),
  sortBy: z.string().default("transactionDate"),
  sortOrder: z.coerce
    .number()
    .pipe(z.union([z.literal(1), z.literal(-1)]))
    .default(-1),
  status: z.string().optional(),
  userId: z.string().optional(),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
});
export const historyQuerySchema = transactionsQuerySchema.extend({
  sortBy: z.string().default("timestamp"),
  eventType: z.string().optional(),
});
