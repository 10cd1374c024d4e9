import {
  CHECKOUT_MODES,
  CHECKOUT_SESSION_STATUSES,
  CURRENCIES,
  PAYMENT_KINDS,
  PAYMENT_PROVIDERS,
  PLAN_INTERVALS,
  SUBSCRIPTION_EVENT_TYPES,
  SUBSCRIPTION_STATUSES,
  TRANSACTION_STATUSES,
} from "@twinline/contracts";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./users.ts";

// Billing (issue 9; docs/decisions/0016, 0017). Money is integer minor units with its currency.

export const billingCurrency = pgEnum("billing_currency", CURRENCIES);
export const planInterval = pgEnum("plan_interval", PLAN_INTERVALS);
export const paymentProvider = pgEnum("payment_provider", PAYMENT_PROVIDERS);
export const paymentKind = pgEnum("payment_kind", PAYMENT_KINDS);
/**
 * `refunded`: the whole amount was given back (a partial refund keeps `success`; decision 0050).
 * `credited`: a downgrade's account credit (a negative amount, never revenue; decision 0034).
 */
export const paymentStatus = pgEnum("payment_status", TRANSACTION_STATUSES);
export const subscriptionStatus = pgEnum("subscription_status", SUBSCRIPTION_STATUSES);
export const subscriptionEventType = pgEnum("subscription_event_type", SUBSCRIPTION_EVENT_TYPES);
export const checkoutMode = pgEnum("checkout_mode", CHECKOUT_MODES);
export const checkoutStatus = pgEnum("checkout_status", CHECKOUT_SESSION_STATUSES);

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/**
 * One-off credit packages. A delete sets `deleted_at` (the Stripe Product is deactivated; earlier
 * purchases keep their package). `stripe_price_id` is the Price in force: a new price or currency
 * makes a new Price, and the old one is kept in `billing_prices`.
 */
export const creditPackages = pgTable(
  "credit_packages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    credits: integer("credits").notNull(),
    priceMinor: integer("price_minor").notNull(),
    currency: billingCurrency("currency").notNull().default("usd"),
    /** Percent, 0 to 100 (two decimals allowed: stored as hundredths of a percent). */
    discountBasisPoints: integer("discount_basis_points").notNull().default(0),
    isActive: boolean("is_active").notNull().default(true),
    stripeProductId: text("stripe_product_id"),
    stripePriceId: text("stripe_price_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (table) => [
    check("credit_packages_credits_positive", sql`${table.credits} > 0`),
    check("credit_packages_price_not_negative", sql`${table.priceMinor} >= 0`),
    check("credit_packages_discount_range", sql`${table.discountBasisPoints} between 0 and 10000`),
    index("credit_packages_credits_idx").on(table.credits),
  ],
);
export type CreditPackageRow = typeof creditPackages.$inferSelect;

/**
 * Subscription plans. Interval and count are fixed once created. A delete sets `deleted_at` and
 * deactivates the Stripe Product; subscriptions on the plan keep working. `credits`: granted on
 * every paid period (0: none).
 */
export const subscriptionPlans = pgTable(
  "subscription_plans",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    priceMinor: integer("price_minor").notNull(),
    currency: billingCurrency("currency").notNull().default("usd"),
    interval: planInterval("interval").notNull().default("month"),
    intervalCount: integer("interval_count").notNull().default(1),
    features: jsonb("features").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    isActive: boolean("is_active").notNull().default(true),
    credits: integer("credits").notNull().default(0),
    /** Free trial days of a fan's first subscription (0: none; decision 0083). */
    trialDays: integer("trial_days").notNull().default(0),
    stripeProductId: text("stripe_product_id"),
    stripePriceId: text("stripe_price_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (table) => [
    check("subscription_plans_price_not_negative", sql`${table.priceMinor} >= 0`),
    check("subscription_plans_interval_count_min", sql`${table.intervalCount} >= 1`),
    check("subscription_plans_credits_not_negative", sql`${table.credits} >= 0`),
    check(
      "subscription_plans_trial_days_range",
      sql`${table.trialDays} >= 0 AND ${table.trialDays} <= 90`,
    ),
  ],
);
export type SubscriptionPlanRow = typeof subscriptionPlans.$inferSelect;

/**
 * Every price a package or plan has had (the one in force and the old ones subscribers stay on).
 * `price_id` is the Stripe Price id, or `price_sandbox_*` in the sandbox.
 */
export const billingPrices = pgTable(
  "billing_prices",
  {
    priceId: text("price_id").primaryKey(),
    provider: paymentProvider("provider").notNull(),
    packageId: uuid("package_id").references(() => creditPackages.id),
    planId: uuid("plan_id").references(() => subscriptionPlans.id),
    amountMinor: integer("amount_minor").notNull(),
    currency: billingCurrency("currency").notNull(),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
  },
  (table) => [
    index("billing_prices_package_idx").on(table.packageId),
    index("billing_prices_plan_idx").on(table.planId),
  ],
);

/**
 * Checkout sessions made by this app (Stripe's cs_* or the sandbox's cs_sandbox_*). The unique
 * session id and `fulfilled_at` make fulfilment exactly-once per session: the row is locked and
 * marked in the same transaction as the ledger entry. The sandbox keeps its whole state here.
 */
export const checkoutSessions = pgTable(
  "checkout_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: text("session_id").notNull().unique(),
    provider: paymentProvider("provider").notNull(),
    mode: checkoutMode("mode").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    packageId: uuid("package_id").references(() => creditPackages.id),
    planId: uuid("plan_id").references(() => subscriptionPlans.id),
    priceId: text("price_id"),
    itemName: text("item_name").notNull(),
    description: text("description").notNull().default(""),
    amountMinor: integer("amount_minor").notNull(),
    currency: billingCurrency("currency").notNull(),
    credits: integer("credits"),
    /**
     * The promotion code given (docs/decisions/0083) and what it took off: `amount_minor` is
     * what is charged, after it. An open session holds one use of the code until it expires.
     */
    promotionCodeId: uuid("promotion_code_id"),
    promotionCode: text("promotion_code"),
    discountMinor: integer("discount_minor").notNull().default(0),
    status: checkoutStatus("status").notNull().default("open"),
    paymentStatus: text("payment_status").notNull().default("unpaid"),
    url: text("url").notNull(),
    successUrl: text("success_url").notNull(),
    cancelUrl: text("cancel_url").notNull(),
    fulfilledAt: timestamp("fulfilled_at", { withTimezone: true }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  // One plan checkout open per user (decision 0051): the partial unique index
  // checkout_sessions_one_open_plan_idx is hand-written in 0013_money_tools.sql, after the
  // backfill that closes older duplicates (drizzle would create it before the backfill).
  (table) => [
    index("checkout_sessions_user_created_idx").on(table.userId, table.createdAt),
    index("checkout_sessions_promotion_code_idx").on(table.promotionCodeId, table.userId),
  ],
);
export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;

/**
 * Subscriptions, one row per provider subscription (`sub_*`, or `sub_sandbox_*`). A user's current
 * subscription is their newest row. Each keeps its own price (it stays on it when the plan's price
 * changes). Stripe's state is re-read on every event, so the row is the provider's latest word.
 */
export const userSubscriptions = pgTable(
  "user_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null once the account was deleted: kept for accounting, detached (decision 0063). */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    planId: uuid("plan_id")
      .notNull()
      .references(() => subscriptionPlans.id),
    provider: paymentProvider("provider").notNull(),
    providerSubscriptionId: text("provider_subscription_id").notNull().unique(),
    providerCustomerId: text("provider_customer_id"),
    priceId: text("price_id"),
    priceMinor: integer("price_minor").notNull(),
    currency: billingCurrency("currency").notNull(),
    status: subscriptionStatus("status").notNull(),
    currentPeriodStart: timestamp("current_period_start", { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    /** The end of its free trial (decision 0083), null when it started without one. */
    trialEnd: timestamp("trial_end", { withTimezone: true }),
    canceledAt: timestamp("canceled_at", { withTimezone: true }),
    /**
     * The plan change in flight (docs/decisions/0034): set by a conditional update, so one change
     * per subscription runs at a time; its key is the provider's idempotency key. A change whose
     * process died is taken over once `plan_change_started_at` is old.
     */
    planChangeKey: text("plan_change_key"),
    planChangeStartedAt: timestamp("plan_change_started_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index("user_subscriptions_user_created_idx").on(table.userId, table.createdAt.desc()),
    index("user_subscriptions_status_idx").on(table.status, table.currentPeriodEnd),
    index("user_subscriptions_plan_idx").on(table.planId),
  ],
);
export type UserSubscriptionRow = typeof userSubscriptions.$inferSelect;

/**
 * Every payment: credit purchases (kind credits) and subscription payments (kind subscription),
 * the admin's two transaction screens. `source_key` (`checkout:<sessionId>`, `invoice:<id>`) is
 * unique: a replay records nothing twice. Each admin filter and sort is served by an index that
 * leads with the kind.
 */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /**
     * The order rows were written in: breaks ties between payments of the same second (a
     * provider's times are whole seconds), where the random id would shuffle them.
     */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    kind: paymentKind("kind").notNull(),
    /** Null once the account was deleted: kept for accounting, detached (decision 0063). */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    status: paymentStatus("status").notNull(),
    amountMinor: integer("amount_minor").notNull(),
    currency: billingCurrency("currency").notNull(),
    credits: integer("credits").notNull().default(0),
    packageId: uuid("package_id").references(() => creditPackages.id),
    planId: uuid("plan_id").references(() => subscriptionPlans.id),
    subscriptionId: uuid("subscription_id").references(() => userSubscriptions.id),
    /** The package's or plan's name when paid (kept when it is renamed or deleted). */
    itemName: text("item_name").notNull(),
    provider: paymentProvider("provider").notNull(),
    /** The payment intent (credits) or the invoice's payment (subscriptions), when known. */
    stripePaymentId: text("stripe_payment_id"),
    invoiceId: text("invoice_id"),
    invoiceNumber: text("invoice_number"),
    checkoutSessionId: text("checkout_session_id"),
    sourceKey: text("source_key").notNull().unique(),
    /** What a promotion code took off (`amount_minor` is what was paid), and the code. */
    discountMinor: integer("discount_minor").notNull().default(0),
    promotionCode: text("promotion_code"),
    /** What was given back so far (refunds and disputes; payment_refunds holds each one). */
    refundedMinor: integer("refunded_minor").notNull().default(0),
    transactionDate: timestamp("transaction_date", { withTimezone: true }).notNull().defaultNow(),
    metadata: jsonb("metadata")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (table) => [
    index("payments_kind_date_seq_idx").on(table.kind, table.transactionDate, table.seq),
    index("payments_kind_status_date_seq_idx").on(
      table.kind,
      table.status,
      table.transactionDate,
      table.seq,
    ),
    index("payments_kind_user_date_idx").on(table.kind, table.userId, table.transactionDate),
    index("payments_kind_amount_seq_idx").on(table.kind, table.amountMinor, table.seq),
    index("payments_kind_credits_seq_idx").on(table.kind, table.credits, table.seq),
    index("payments_kind_item_seq_idx").on(table.kind, table.itemName, table.seq),
    index("payments_kind_payment_id_seq_idx").on(table.kind, table.stripePaymentId, table.seq),
    index("payments_user_date_seq_idx").on(table.userId, table.transactionDate, table.seq),
  ],
);
export type PaymentRow = typeof payments.$inferSelect;

/**
 * How many payments there are of each kind and status, kept by statement-level triggers on
 * `payments` (hand-written at the end of migration 0007_billing.sql: drizzle cannot express
 * triggers). The admin lists' unfiltered totals read these instead of counting a million rows.
 * Each change lands on one of 16 slots at random, so concurrent payments rarely wait on one row.
 */
export const paymentCounts = pgTable(
  "payment_counts",
  {
    kind: paymentKind("kind").notNull(),
    status: paymentStatus("status").notNull(),
    slot: smallint("slot").notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.kind, table.status, table.slot] })],
);

/**
 * Subscription history (admin-side section 3): one row per event, `source_key` unique so a
 * replayed webhook adds nothing. Indexed for each filter (event type, status, user, date).
 */
export const subscriptionEvents = pgTable(
  "subscription_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null once the account was deleted: kept for accounting, detached (decision 0063). */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    subscriptionId: uuid("subscription_id").references(() => userSubscriptions.id),
    planId: uuid("plan_id").references(() => subscriptionPlans.id),
    planName: text("plan_name").notNull(),
    eventType: subscriptionEventType("event_type").notNull(),
    status: subscriptionStatus("status").notNull(),
    startDate: timestamp("start_date", { withTimezone: true }),
    endDate: timestamp("end_date", { withTimezone: true }),
    amountMinor: integer("amount_minor").notNull().default(0),
    currency: billingCurrency("currency").notNull(),
    autoRenew: boolean("auto_renew").notNull(),
    providerSubscriptionId: text("provider_subscription_id"),
    sourceKey: text("source_key").notNull().unique(),
    timestamp: timestamp("timestamp", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("subscription_events_timestamp_idx").on(table.timestamp, table.id),
    index("subscription_events_type_timestamp_idx").on(table.eventType, table.timestamp),
    index("subscription_events_status_timestamp_idx").on(table.status, table.timestamp),
    index("subscription_events_user_timestamp_idx").on(table.userId, table.timestamp),
    index("subscription_events_amount_idx").on(table.amountMinor, table.id),
  ],
);
export type SubscriptionEventRow = typeof subscriptionEvents.$inferSelect;

/** Webhook events handled: one row per Stripe event id, written with the event's effects. */
export const processedWebhookEvents = pgTable("processed_webhook_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  processedAt: timestamp("processed_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The offline sandbox's provider state (docs/decisions/0016): its checkout sessions,
 * subscriptions and invoices as Stripe-shaped JSON, so the sandbox is re-read exactly as Stripe
 * is, on every instance.
 */
export const sandboxObjects = pgTable("sandbox_objects", {
  id: text("id").primaryKey(),
  object: text("object").notNull(),
  data: jsonb("data").$type<Record<string, unknown>>().notNull(),
  /**
   * Insertion order, for the emulator's lists (oldest first): objects made in one transaction
   * share its now(), so created_at alone cannot order them.
   */
  seq: bigserial("seq", { mode: "number" }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
