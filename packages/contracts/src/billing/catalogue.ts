import { z } from "zod";
import { money, readOnlyStripeIds, savedResponse, storableText } from "./fields";
import {
  BILLING_DEFAULTS,
  BILLING_MESSAGES,
  currencySchema,
  paymentProviderSchema,
  planIntervalSchema,
} from "./shared";

// Credit packages (admin-side sections 3, 4, 5; user-side section 2 "Credits").

export const creditPackageSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  credits: z.number().int(),
  /** Major units (9.99). */
  price: z.number(),
  currency: currencySchema,
  /** Percent, 0 to 100. */
  discount: z.number(),
  /** price x (1 - discount/100), rounded to cents: what checkout charges. */
  discountedPrice: z.number(),
  isActive: z.boolean(),
  stripeProductId: z.string().nullable(),
  stripePriceId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CreditPackage = z.infer<typeof creditPackageSchema>;

const packageName = storableText("Package name", 100)
  .transform((value) => value.trim())
  .pipe(z.string().min(1, { error: BILLING_MESSAGES.packageNameRequired }));
const packageCredits = z.coerce
  .number({ error: BILLING_MESSAGES.creditsPositive })
  .int({ error: "Credits must be a whole number" })
  .gt(0, { error: BILLING_MESSAGES.creditsPositive })
  .max(100_000_000, { error: "Credits must be at most 100000000" });
const discountPercent = z.coerce
  .number({ error: BILLING_MESSAGES.discountRange })
  .min(0, { error: BILLING_MESSAGES.discountRange })
  .max(100, { error: BILLING_MESSAGES.discountRange });

/**
 * POST /api/credit-packages (and the admin's add form): the spec's fields and defaults, checked
 * in the spec's order (name, credits, price).
 */
export const creditPackageCreateSchema = z.object({
  name: z.string({ error: BILLING_MESSAGES.packageNameRequired }).pipe(packageName),
  description: storableText("Description", 1000).default(""),
  credits: packageCredits.default(BILLING_DEFAULTS.package.credits),
  price: money(BILLING_DEFAULTS.package.price),
  currency: currencySchema.default(BILLING_DEFAULTS.package.currency),
  discount: discountPercent.default(BILLING_DEFAULTS.package.discount),
  isActive: z.boolean().default(BILLING_DEFAULTS.package.isActive),
});
export type CreditPackageCreate = z.infer<typeof creditPackageCreateSchema>;
export type CreditPackageCreateInput = z.input<typeof creditPackageCreateSchema>;

/**
 * PUT /api/credit-packages/{id}: the full form; name required, every other field optional
 * (kept as it is when absent). A new price or currency makes a new Stripe Price.
 */
export const creditPackageUpdateSchema = z.object({
  name: z.string({ error: BILLING_MESSAGES.packageNameRequired }).pipe(packageName),
  description: storableText("Description", 1000).optional(),
  credits: packageCredits.optional(),
  price: z.coerce
    .number({ error: BILLING_MESSAGES.priceNotNegative })
    .min(0, { error: BILLING_MESSAGES.priceNotNegative })
    .max(999_999.99, { error: "Price must be at most 999999.99" })
    .optional(),
  currency: currencySchema.optional(),
  discount: discountPercent.optional(),
  isActive: z.boolean().optional(),
  ...readOnlyStripeIds,
});
export type CreditPackageUpdate = z.infer<typeof creditPackageUpdateSchema>;

/**
 * GET /api/credit-packages: users (and visitors) get the active packages; an admin token gets
 * every package, inactive ones too (docs/decisions/0016). Sorted by credits ascending.
 * `packages` carries the same list under the user-side spec's name.
 */
export const creditPackagesResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(creditPackageSchema),
  packages: z.array(creditPackageSchema),
});
export const creditPackageResponseSchema = savedResponse(creditPackageSchema);

// Subscription plans (admin-side sections 3, 4, 5; user-side section 3).

export const subscriptionPlanSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  currency: currencySchema,
  interval: planIntervalSchema,
  intervalCount: z.number().int(),
  features: z.array(z.string()),
  isActive: z.boolean(),
  /** Credits granted on every paid period (0: none). */
  credits: z.number().int(),
  /** Free trial days a fan's first subscription starts with (0: none; decision 0083). */
  trialDays: z.number().int(),
  stripeProductId: z.string().nullable(),
  stripePriceId: z.string().nullable(),
  /** Active subscriptions on this plan (the admin cards). */
  subscriberCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SubscriptionPlan = z.infer<typeof subscriptionPlanSchema>;

const planName = storableText("Plan name", 100)
  .transform((value) => value.trim())
  .pipe(z.string().min(1, { error: BILLING_MESSAGES.planNameRequired }));
const features = z
  .array(storableText("Feature", 200))
  .max(50, { error: "At most 50 features" })
  .transform((list) => list.map((feature) => feature.trim()).filter(Boolean));

/** The most free trial days a plan may give (Stripe allows 730; a month or three is the norm). */
export const MAX_TRIAL_DAYS = 90;
const planTrialDays = z.coerce
  .number({ error: "Trial days must be a whole number" })
  .int({ error: "Trial days must be a whole number" })
  .min(0, { error: "Trial days cannot be negative" })
  .max(MAX_TRIAL_DAYS, { error: `Trial days must be at most ${MAX_TRIAL_DAYS}` });

/** POST /api/subscriptions (the admin's plan form) with the spec's defaults. */
export const subscriptionPlanCreateSchema = z.object({
  name: z.string({ error: BILLING_MESSAGES.planNameRequired }).pipe(planName),
  description: storableText("Description", 1000).default(""),
  price: money(BILLING_DEFAULTS.plan.price),
  currency: currencySchema.default(BILLING_DEFAULTS.plan.currency),
  interval: planIntervalSchema.default(BILLING_DEFAULTS.plan.interval),
  intervalCount: z.coerce
    .number({ error: BILLING_MESSAGES.intervalCountMin })
    .int({ error: "Interval count must be a whole number" })
    .min(1, { error: BILLING_MESSAGES.intervalCountMin })
    .max(365, { error: "Interval count must be at most 365" })
    .default(BILLING_DEFAULTS.plan.intervalCount),
  features: features.default([]),
  isActive: z.boolean().default(BILLING_DEFAULTS.plan.isActive),
  credits: z.coerce
    .number({ error: "Credits must be a whole number" })
    .int({ error: "Credits must be a whole number" })
    .min(0, { error: "Credits cannot be negative" })
    .max(100_000_000, { error: "Credits must be at most 100000000" })
    .default(BILLING_DEFAULTS.plan.credits),
  trialDays: planTrialDays.default(0),
});
export type SubscriptionPlanCreate = z.infer<typeof subscriptionPlanCreateSchema>;
export type SubscriptionPlanCreateInput = z.input<typeof subscriptionPlanCreateSchema>;

/**
 * PUT /api/subscriptions/{id}: name required, the rest optional. interval and intervalCount may
 * be sent (the full form) but must equal the plan's (400 otherwise); a new price makes a new
 * Stripe Price and subscribers stay on theirs.
 */
export const subscriptionPlanUpdateSchema = z.object({
  name: z.string({ error: BILLING_MESSAGES.planNameRequired }).pipe(planName),
  description: storableText("Description", 1000).optional(),
  price: z.coerce
    .number({ error: BILLING_MESSAGES.priceNotNegative })
    .min(0, { error: BILLING_MESSAGES.priceNotNegative })
    .max(999_999.99, { error: "Price must be at most 999999.99" })
    .optional(),
  currency: currencySchema.optional(),
  interval: planIntervalSchema.optional(),
  intervalCount: z.coerce
    .number({ error: BILLING_MESSAGES.intervalCountMin })
    .int()
    .min(1, { error: BILLING_MESSAGES.intervalCountMin })
    .optional(),
  features: features.optional(),
  isActive: z.boolean().optional(),
  credits: z.coerce.number().int().min(0, { error: "Credits cannot be negative" }).optional(),
  trialDays: planTrialDays.optional(),
  ...readOnlyStripeIds,
});
export type SubscriptionPlanUpdate = z.infer<typeof subscriptionPlanUpdateSchema>;

/** GET /api/subscriptions (admin, every plan) and GET /api/subscriptions/active-plans. */
export const subscriptionPlansResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(subscriptionPlanSchema),
});
export const subscriptionPlanResponseSchema = savedResponse(subscriptionPlanSchema);

/** Answer of the delete routes and of sync-stripe. */
export const billingMessageResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});

/** POST /api/credit-packages/sync-stripe and POST /api/subscriptions/sync-stripe. */
export const syncStripeResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** "sandbox" when no Stripe key is set: nothing to reconcile. */
  mode: paymentProviderSchema,
  /** Products/prices made for local rows without them. */
  created: z.number().int(),
  /** Rows whose Stripe ids were repaired or whose product was updated from the local row. */
  updated: z.number().int(),
  /** Products at Stripe marked as ours (metadata) with no local row: deactivated. */
  deactivated: z.number().int(),
});
export type SyncStripeResult = z.infer<typeof syncStripeResponseSchema>;

/** GET /api/subscriptions/analytics: subscriptions and revenue per plan. */
export const subscriptionAnalyticsSchema = z.object({
  totalPlans: z.number().int(),
  activePlans: z.number().int(),
  activeSubscriptions: z.number().int(),
  canceledSubscriptions: z.number().int(),
  pastDueSubscriptions: z.number().int(),
  /** Successful subscription payments, major units per currency. */
  revenue: z.array(z.object({ currency: currencySchema, amount: z.number() })),
  plans: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      activeSubscriptions: z.number().int(),
      revenue: z.number(),
      currency: currencySchema,
    }),
  ),
});
export type SubscriptionAnalytics = z.infer<typeof subscriptionAnalyticsSchema>;
export const subscriptionAnalyticsResponseSchema = z.object({
  success: z.literal(true),
  data: subscriptionAnalyticsSchema,
});
