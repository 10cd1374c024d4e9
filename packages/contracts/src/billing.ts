import { z } from "zod";
import { paginationSchema } from "./api";
import { pagedListResponse, pageQueryFields } from "./paged-list";

/**
 * Billing: credit packages, subscription plans, checkout (Stripe or the offline sandbox),
 * subscriptions, transactions and subscription history (user-side sections 2, 3, 7; admin-side
 * sections 2, 3, 4, 5, 7). Money is in major units here (9.99), in minor units in the database.
 */

export const CURRENCIES = ["usd", "eur", "gbp", "inr"] as const;
export const currencySchema = z.enum(CURRENCIES, {
  error: "Currency must be one of usd, eur, gbp, inr",
});
export type Currency = z.infer<typeof currencySchema>;

export const PLAN_INTERVALS = ["day", "week", "month", "year"] as const;
export const planIntervalSchema = z.enum(PLAN_INTERVALS, {
  error: "Interval must be one of day, week, month, year",
});
export type PlanInterval = z.infer<typeof planIntervalSchema>;

/**
 * `refunded`: given back in whole (a partial refund keeps `success`, with `refundedAmount`).
 * `credited`: account credit from a downgrade (not money paid: never revenue).
 */
export const TRANSACTION_STATUSES = [
  "success",
  "pending",
  "failed",
  "refunded",
  "credited",
] as const;
export const transactionStatusSchema = z.enum(TRANSACTION_STATUSES);
export type TransactionStatus = z.infer<typeof transactionStatusSchema>;

/** A subscription's state at the payment provider (admin-side history statuses). */
export const SUBSCRIPTION_STATUSES = [
  "active",
  "canceled",
  "past_due",
  "unpaid",
  "incomplete",
] as const;
export const subscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

export const SUBSCRIPTION_EVENT_TYPES = [
  "created",
  "updated",
  "canceled",
  "renewed",
  "payment_failed",
] as const;
export const subscriptionEventTypeSchema = z.enum(SUBSCRIPTION_EVENT_TYPES);
export type SubscriptionEventType = z.infer<typeof subscriptionEventTypeSchema>;

/** The spec's defaults (admin-side section 9) and the user-side estimate (credits / 5). */
export const BILLING_DEFAULTS = {
  package: { credits: 100, price: 9.99, currency: "usd", discount: 0, isActive: true },
  plan: {
    price: 0,
    currency: "usd",
    interval: "month",
    intervalCount: 1,
    isActive: true,
    credits: 0,
  },
  /** The credits page estimates minutes as credits divided by this (user-side section 2). */
  creditsPerMinuteEstimate: 5,
  /** Page sizes: payment history on /dashboard/credits, on /dashboard/transactions, admin lists. */
  creditsPageHistoryLimit: 5,
  transactionsPageLimit: 10,
  adminListLimit: 10,
} as const;

/** Every text of the billing API a user or the admin can see. */
export const BILLING_MESSAGES = {
  packageNameRequired: "Package name is required",
  creditsPositive: "Credits must be greater than zero",
  priceNotNegative: "Price cannot be negative",
  packageIdMissing: "Package ID is missing",
  planNameRequired: "Plan name is required",
  intervalCountMin: "Interval count must be at least 1",
  discountRange: "Discount must be between 0 and 100",
  intervalFixed: "Interval and interval count cannot change after creation",
  packageNotFound: "Package not found",
  planNotFound: "Plan not found",
  packageInactive: "This credit package is not available",
  planInactive: "This subscription plan is not available",
  packageCreated: "Credit package created successfully",
  packageUpdated: "Credit package updated successfully",
  packageDeleted: "Credit package deleted successfully",
  packageActivated: "Package activated successfully",
  packageDeactivated: "Package deactivated successfully",
  packagesSynced: "Credit Plan Sync Completed",
  planCreated: "Subscription plan created successfully",
  planUpdated: "Subscription plan updated successfully",
  planDeleted: "Subscription plan deleted successfully",
  planActivated: "Plan activated successfully",
  planDeactivated: "Plan deactivated successfully",
  plansSynced: "Plans synced with Stripe",
  /** Sync pressed with no Stripe secret key: nothing was synced (a 200 with mode "sandbox"). */
  stripeNotConfigured:
    "Stripe is not configured: add the Stripe secret key under API Keys, then sync",
  alreadySubscribed: "You already have an active subscription. Change your plan instead.",
  noActiveSubscription: "No active subscription",
  samePlan: "You are already subscribed to this plan",
  planChanged: "Subscription plan changed successfully",
  canceled: "Your subscription will be canceled at the end of the current period",
  alreadyCanceling: "Your subscription is already set to cancel at the end of the period",
  resumed: "Your subscription will renew at the end of the current period",
  changeInProgress:
    "A change to your subscription is already in progress. Please try again in a moment.",
  cardDeclined: "Your card was declined.",
  invalidCard: "Your card number is incomplete.",
  invalidExpiry: "Your card's expiration date is incomplete.",
  expiredCard: "Your card has expired.",
  invalidCvc: "Your card's security code is incomplete.",
  sessionNotFound: "Checkout session not found",
  sessionClosed: "This checkout session is no longer open",
  invalidSignature: "Invalid webhook signature",
  webhookNotConfigured: "Webhook signing secret is not configured",
  transactionNotFound: "Transaction not found",
  historyEventNotFound: "Subscription history record not found",
} as const;

/** The sandbox's test cards (docs/decisions/0016): the first succeeds, the second is declined. */
export const SANDBOX_CARDS = {
  success: "4242424242424242",
  declined: "4000000000000002",
} as const;

/**
 * Where checkout returns (under PUBLIC_URL). Stripe replaces {CHECKOUT_SESSION_ID}; the sandbox
 * does the same. The web app shows the result of the session on these pages.
 */
export const CHECKOUT_RETURN_PATHS = {
  packageSuccess: "/dashboard/credits?checkout=success&session_id={CHECKOUT_SESSION_ID}",
  packageCancel: "/dashboard/credits?checkout=canceled&session_id={CHECKOUT_SESSION_ID}",
  planSuccess: "/dashboard/credits?subscription=success&session_id={CHECKOUT_SESSION_ID}",
  planCancel: "/dashboard/credits?subscription=canceled&session_id={CHECKOUT_SESSION_ID}",
  /** The sandbox's hosted page (billing-web). */
  sandboxCheckout: "/checkout/sandbox/",
} as const;

// ---------------------------------------------------------------------------------------------
// Text safety: no NUL byte, no lone surrogate (PostgreSQL refuses them with an error).

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL byte is what is refused
const NUL = /\u0000/u;
/** Text that PostgreSQL can store: refused (400) with a NUL byte or a lone surrogate. */
export const storableText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .max(max, { error: `${field} must be at most ${max} characters` })
    .refine((value) => !NUL.test(value) && !LONE_SURROGATE.test(value), {
      error: `${field} contains characters that are not allowed`,
    });

/** A money amount in major units, 0 or more, at most 2 decimals' worth (rounded to cents). */
const money = (defaultValue: number) =>
  z.coerce
    .number({ error: BILLING_MESSAGES.priceNotNegative })
    .refine(Number.isFinite, { error: "Price must be a number" })
    .min(0, { error: BILLING_MESSAGES.priceNotNegative })
    .max(999_999.99, { error: "Price must be at most 999999.99" })
    .default(defaultValue);

/** The update forms send the Stripe ids back, read-only; they are ignored. */
const readOnlyStripeIds = {
  stripeProductId: z.string().nullish(),
  stripePriceId: z.string().nullish(),
};

/** The answer of a create, an update or a toggle: the saved row and what happened. */
const savedResponse = <Item extends z.ZodType>(item: Item) =>
  z.object({
    success: z.literal(true),
    message: z.string().optional(),
    data: item,
  });

const idParam = (what: string) => z.uuid({ error: `Invalid ${what} id` });

export const billingIdParamsSchema = z.object({ id: idParam("record") });
export const packageIdParamsSchema = z.object({ id: idParam("package") });
export const planIdParamsSchema = z.object({ id: idParam("plan") });

// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
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
  mode: z.enum(["stripe", "sandbox"]),
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

// ---------------------------------------------------------------------------------------------
// Checkout (user-side section 7; sandbox: docs/decisions/0016).

export const createPackageCheckoutSchema = z.object({
  packageId: z.uuid({ error: BILLING_MESSAGES.packageIdMissing }),
});
export const createPlanCheckoutSchema = z.object({
  planId: z.uuid({ error: "Plan ID is missing" }),
});
export const changePlanRequestSchema = createPlanCheckoutSchema;

/** POST /api/payments/create-checkout-session and POST /api/subscriptions/create-checkout. */
export const checkoutResponseSchema = z.object({
  success: z.literal(true),
  /** The hosted checkout: Stripe Checkout, or the sandbox page of this app. */
  url: z.string(),
  sessionId: z.string(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

export const CHECKOUT_SESSION_STATUSES = ["open", "complete", "expired", "canceled"] as const;

/**
 * A checkout session as its owner sees it: the sandbox page and the return pages
 * (GET /api/payments/sandbox/sessions/{id}, GET /api/payments/checkout-sessions/{id}).
 */
export const checkoutSessionViewSchema = z.object({
  sessionId: z.string(),
  provider: z.enum(["stripe", "sandbox"]),
  mode: z.enum(["payment", "subscription"]),
  /** open: waiting for payment; complete: paid (fulfilled says whether credits/plan landed). */
  status: z.enum(CHECKOUT_SESSION_STATUSES),
  paymentStatus: z.enum(["paid", "unpaid", "failed"]),
  fulfilled: z.boolean(),
  itemName: z.string(),
  description: z.string(),
  /** What is charged, major units. */
  amount: z.number(),
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

// ---------------------------------------------------------------------------------------------
// The user's subscription (user-side sections 2, 3, 4).

/**
 * The one reading of the subscription status the API answers (users/subscription-state.ts
 * decides it): "canceled" is set to cancel at the period end and still in force, shown as
 * Canceling on the user side (user-side section 4) and Canceled in the admin's users list.
 */
export const SUBSCRIPTION_STATUS_LABELS = {
  active: "Active",
  canceled: "Canceling",
  inactive: "Inactive",
} as const;

/** Whether a status carries a plan in force (active, or canceling until its period ends). */
export const isSubscribed = (status: "active" | "canceled" | "inactive"): boolean =>
  status !== "inactive";

/** GET /api/subscriptions/my-subscription: always an object; "inactive" with no plan. */
export const currentSubscriptionSchema = z.object({
  _id: z.string().nullable(),
  /** canceled: set to cancel at period end (shown as Canceling), still usable until endDate. */
  status: z.enum(["active", "canceled", "inactive"]),
  /** The provider's own state (past_due while a renewal payment is failing). */
  providerStatus: subscriptionStatusSchema.nullable(),
  plan: z
    .object({
      _id: z.string(),
      name: z.string(),
      price: z.number(),
      currency: currencySchema,
      interval: planIntervalSchema,
      intervalCount: z.number().int(),
    })
    .nullable(),
  /** What this subscription pays per period (it stays on its price when the plan's changes). */
  price: z.number().nullable(),
  currency: currencySchema.nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  autoRenew: z.boolean(),
  cancelAtPeriodEnd: z.boolean(),
  stripeSubscriptionId: z.string().nullable(),
});
export type CurrentSubscription = z.infer<typeof currentSubscriptionSchema>;
export const mySubscriptionResponseSchema = z.object({
  success: z.literal(true),
  data: currentSubscriptionSchema,
  subscription: currentSubscriptionSchema,
});

/** POST /api/subscriptions/upgrade: the spec's plan change result. */
export const planChangeResultSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  subscription: currentSubscriptionSchema.extend({
    /**
     * The change's proration, major units: positive, charged to the card now for the rest of
     * the period; negative, credited to the next invoice (a downgrade); 0 or null: none.
     */
    proratedAmount: z.number().nullable(),
    currency: currencySchema.nullable(),
    previousPlan: z.object({ _id: z.string(), name: z.string(), price: z.number() }).nullable(),
    change: z.enum(["upgrade", "downgrade", "change"]),
  }),
});
export type PlanChangeResult = z.infer<typeof planChangeResultSchema>;

/** POST /api/subscriptions/cancel. */
export const cancelSubscriptionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  subscription: currentSubscriptionSchema,
});

/** GET /api/users/credit-balance. */
export const creditBalanceResponseSchema = z.object({
  success: z.literal(true),
  available: z.number().int(),
});

// ---------------------------------------------------------------------------------------------
// Transactions, user side (user-side section 3 "Transaction").

export const userTransactionSchema = z.object({
  _id: z.string(),
  kind: z.enum(["credits", "subscription"]),
  transactionDate: z.string(),
  credits: z.number().int(),
  amount: z.number(),
  currency: currencySchema,
  status: transactionStatusSchema,
  /** Given back so far (refunds and disputes), in major units. */
  refundedAmount: z.number(),
  stripePaymentId: z.string().nullable(),
  planName: z.string().nullable(),
  metadata: z.object({
    packageName: z.string().nullable(),
    invoiceNumber: z.string().nullable(),
  }),
  /** Why a `failed` payment failed (a decline, a paid amount that differs from the price). */
  failureReason: z.string().nullable().optional(),
});
export type UserTransaction = z.infer<typeof userTransactionSchema>;

export const pageQuerySchema = z.object(
  pageQueryFields({ limit: BILLING_DEFAULTS.transactionsPageLimit, maxLimit: 100 }),
);
export type PageQuery = z.infer<typeof pageQuerySchema>;

/**
 * GET /api/payments/history (credit purchases) and GET /api/payments/subscription-history
 * (subscription payments): `transactions` is the spec's name, `data` the API's; same list.
 */
export const userTransactionsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(userTransactionSchema),
  transactions: z.array(userTransactionSchema),
  pagination: paginationSchema,
});

// ---------------------------------------------------------------------------------------------
// Admin lists (admin-side sections 2, 3, 7).

export const populatedUserSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  profileImage: z.string().nullable(),
});

export const adminCreditTransactionSchema = z.object({
  _id: z.string(),
  transactionDate: z.string(),
  userId: populatedUserSchema.nullable(),
  credits: z.number().int(),
  amount: z.number(),
  currency: currencySchema,
  status: transactionStatusSchema,
  /** Given back so far (refunds and disputes), in major units. */
  refundedAmount: z.number(),
  packageId: z.string().nullable(),
  stripePaymentId: z.string().nullable(),
  metadata: z.object({
    packageName: z.string().nullable(),
    invoiceNumber: z.string().nullable(),
  }),
  /** Why a `failed` payment failed (a decline, a paid amount that differs from the price). */
  failureReason: z.string().nullable().optional(),
});
export type AdminCreditTransaction = z.infer<typeof adminCreditTransactionSchema>;

export const adminSubscriptionTransactionSchema = z.object({
  _id: z.string(),
  transactionDate: z.string(),
  userId: populatedUserSchema.nullable(),
  planId: z.object({ _id: z.string(), name: z.string() }).nullable(),
  planName: z.string().nullable(),
  amount: z.number(),
  currency: currencySchema,
  status: transactionStatusSchema,
  /** Given back so far (refunds and disputes), in major units. */
  refundedAmount: z.number(),
  stripePaymentId: z.string().nullable(),
  invoiceId: z.string().nullable(),
  /** Credits granted with this payment (plans that grant credits). */
  credits: z.number().int(),
  /** Why a `failed` payment failed (a decline, a paid amount that differs from the price). */
  failureReason: z.string().nullable().optional(),
});
export type AdminSubscriptionTransaction = z.infer<typeof adminSubscriptionTransactionSchema>;

export const subscriptionHistoryEventSchema = z.object({
  _id: z.string(),
  timestamp: z.string(),
  userId: populatedUserSchema.nullable(),
  planId: z.object({ _id: z.string(), name: z.string() }).nullable(),
  eventType: subscriptionEventTypeSchema,
  status: subscriptionStatusSchema,
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  amount: z.number(),
  currency: currencySchema,
  autoRenew: z.boolean(),
  stripeSubscriptionId: z.string().nullable(),
});
export type SubscriptionHistoryEvent = z.infer<typeof subscriptionHistoryEventSchema>;

/** 1 or -1 (the users list's form); "asc"/"desc" are read as 1/-1 too. */
const sortOrder = z
  .preprocess(
    (value) => (value === "asc" ? 1 : value === "desc" ? -1 : value),
    z.coerce
      .number()
      .int()
      .refine((value) => value === 1 || value === -1, { error: "sortOrder must be 1 or -1" }),
  )
  .default(-1);

/**
 * A date filter: yyyy-MM-dd (a UTC day; as an end date it includes the whole day) or an ISO
 * date-time. Impossible dates (2026-02-30) and years outside 1970..9999 are a 400.
 */
const dateFilter = (field: string) =>
  storableText(field, 40)
    .refine(
      (value) => {
        if (!/^\d{4}-\d{2}-\d{2}([Tt ].*)?$/.test(value)) return false;
        const asDate = z.iso.date().safeParse(value).success;
        const asDateTime = z.iso.datetime({ offset: true }).safeParse(value).success;
        if (!asDate && !asDateTime) return false;
        const year = Number(value.slice(0, 4));
        return year >= 1970 && year <= 9999 && !Number.isNaN(Date.parse(value));
      },
      { error: `${field} must be a date (yyyy-MM-dd) or an ISO date-time` },
    )
    .optional();

const statusFilter = z.enum(["all", ...TRANSACTION_STATUSES]).default("all");
/** The user filter: a user id, or part of a user's e-mail or name (case-insensitive). */
const userFilter = storableText("userId", 200)
  .transform((value) => value.trim())
  .optional();

export const CREDIT_TRANSACTION_SORT_FIELDS = [
  "transactionDate",
  "credits",
  "amount",
  "status",
  "packageName",
  "stripePaymentId",
  "user",
] as const;
export const SUBSCRIPTION_TRANSACTION_SORT_FIELDS = [
  "transactionDate",
  "amount",
  "status",
  "planName",
  "stripePaymentId",
  "user",
] as const;
export const SUBSCRIPTION_HISTORY_SORT_FIELDS = [
  "timestamp",
  "eventType",
  "status",
  "amount",
  "startDate",
  "endDate",
  "planName",
  "user",
] as const;

const listBase = {
  ...pageQueryFields({ limit: BILLING_DEFAULTS.adminListLimit, maxLimit: 100 }),
  sortOrder,
  userId: userFilter,
  startDate: dateFilter("startDate"),
  endDate: dateFilter("endDate"),
};

/** GET /api/admin/credit-transactions. */
export const adminCreditTransactionsQuerySchema = z.object({
  ...listBase,
  sortBy: z.enum(CREDIT_TRANSACTION_SORT_FIELDS).default("transactionDate"),
  status: statusFilter,
});
export type AdminCreditTransactionsQuery = z.infer<typeof adminCreditTransactionsQuerySchema>;

/** GET /api/admin/subscription-transactions. */
export const adminSubscriptionTransactionsQuerySchema = z.object({
  ...listBase,
  sortBy: z.enum(SUBSCRIPTION_TRANSACTION_SORT_FIELDS).default("transactionDate"),
  status: statusFilter,
});
export type AdminSubscriptionTransactionsQuery = z.infer<
  typeof adminSubscriptionTransactionsQuerySchema
>;

/** GET /api/admin/subscription-history. */
export const adminSubscriptionHistoryQuerySchema = z.object({
  ...listBase,
  sortBy: z.enum(SUBSCRIPTION_HISTORY_SORT_FIELDS).default("timestamp"),
  status: z.enum(["all", ...SUBSCRIPTION_STATUSES]).default("all"),
  eventType: z.enum(["all", ...SUBSCRIPTION_EVENT_TYPES]).default("all"),
});
export type AdminSubscriptionHistoryQuery = z.infer<typeof adminSubscriptionHistoryQuerySchema>;

export const adminCreditTransactionsResponseSchema = pagedListResponse(
  adminCreditTransactionSchema,
);
export const adminSubscriptionTransactionsResponseSchema = pagedListResponse(
  adminSubscriptionTransactionSchema,
);
export const adminSubscriptionHistoryResponseSchema = pagedListResponse(
  subscriptionHistoryEventSchema,
);
export const adminSubscriptionHistoryEventResponseSchema = z.object({
  success: z.literal(true),
  data: subscriptionHistoryEventSchema,
});

export const ADMIN_USER_TRANSACTION_SORT_FIELDS = [
  "transactionDate",
  "credits",
  "amount",
  "status",
  "planName",
  "transactionId",
] as const;
export type AdminUserTransactionSortField = (typeof ADMIN_USER_TRANSACTION_SORT_FIELDS)[number];

/**
 * GET /api/admin/users/{userId}/transactions and /subscription-transactions: the user's own
 * rows, newest first by default; the details page's tabs search, sort and page them on the
 * server, so every transaction is reachable. `search`: part of the row's id, transaction id,
 * status or plan name.
 */
export const adminUserTransactionsQuerySchema = z.object({
  ...pageQueryFields({ limit: 100, maxLimit: 500 }),
  sortBy: z.enum(ADMIN_USER_TRANSACTION_SORT_FIELDS).default("transactionDate"),
  sortOrder,
  search: storableText("search", 200).optional(),
});
export type AdminUserTransactionsQuery = z.infer<typeof adminUserTransactionsQuerySchema>;
export const adminUserCreditTransactionsResponseSchema = adminCreditTransactionsResponseSchema;
export const adminUserSubscriptionTransactionsResponseSchema =
  adminSubscriptionTransactionsResponseSchema;

/**
 * A revenue figure: `value` is the USD amount (major units), the headline every screen shows
 * first; `byCurrency` has one entry per currency with revenue in that figure, USD first and
 * always present. Currencies are never added together (decision 0036).
 */
export const moneyMetricSchema = z.object({
  value: z.number(),
  byCurrency: z.array(z.object({ currency: currencySchema, value: z.number() })),
});
export type MoneyMetric = z.infer<typeof moneyMetricSchema>;

/**
 * The transaction screens' Revenue Analytics cards: successful payments (credits, subscriptions
 * or both) in all and by UTC day and month, per currency, the same figures as the dashboard's.
 */
const metric = moneyMetricSchema;
export const revenueFiguresSchema = z.object({
  totalRevenue: metric,
  todayRevenue: metric,
  yesterdayRevenue: metric,
  thisMonthRevenue: metric,
  lastMonthRevenue: metric,
});
export type RevenueFigures = z.infer<typeof revenueFiguresSchema>;
/** GET /api/admin/revenue?kind=all|credits|subscriptions. */
export const adminRevenueQuerySchema = z.object({
  kind: z.enum(["all", "credits", "subscriptions"]).default("all"),
});
export const adminRevenueResponseSchema = z.object({
  success: z.literal(true),
  data: revenueFiguresSchema,
});

// CSV exports are made on the screen from the current page (admin-side section 7 notes).
export const SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS = [
  "Date",
  "User Email",
  "User Name",
  "Subscription Plan",
  "Amount",
  "Currency",
  "Status",
  "Transaction ID",
] as const;
export const CREDIT_TRANSACTIONS_CSV_COLUMNS = [
  "Date",
  "User Email",
  "User Name",
  "Package",
  "Credits",
  "Amount",
  "Currency",
  "Status",
  "Transaction ID",
] as const;
export const SUBSCRIPTION_HISTORY_CSV_COLUMNS = [
  "Date",
  "User Email",
  "User Name",
  "Subscription Plan",
  "Event Type",
  "Status",
  "Start Date",
  "End Date",
  "Amount",
  "Currency",
  "Auto Renew",
  "Stripe Subscription ID",
] as const;

/** GET /api/subscriptions/history: the signed-in user's subscription events, newest first. */
export const userSubscriptionHistoryResponseSchema = pagedListResponse(
  subscriptionHistoryEventSchema,
);

/** POST /api/payments/webhook answers Stripe with this. */
export const webhookResponseSchema = z.object({
  received: z.literal(true),
  duplicate: z.boolean().optional(),
});
