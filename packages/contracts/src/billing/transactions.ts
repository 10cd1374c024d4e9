import { z } from "zod";
import { paginationSchema } from "../api";
import { pagedListResponse, pageQueryFields } from "../paged-list";
import { queryDateOrTime } from "../query-dates";
import { storableText } from "./fields";
import {
  BILLING_DEFAULTS,
  currencySchema,
  paymentKindSchema,
  SUBSCRIPTION_EVENT_TYPES,
  SUBSCRIPTION_STATUSES,
  subscriptionEventTypeSchema,
  subscriptionStatusSchema,
  TRANSACTION_STATUSES,
  transactionStatusSchema,
} from "./shared";

// Transactions, user side (user-side section 3 "Transaction").

export const userTransactionSchema = z.object({
  _id: z.string(),
  kind: paymentKindSchema,
  transactionDate: z.string(),
  credits: z.number().int(),
  amount: z.number(),
  currency: currencySchema,
  status: transactionStatusSchema,
  /** Given back so far (refunds and disputes), in major units. */
  refundedAmount: z.number(),
  /** What a promotion code took off (major units; `amount` is what was paid), and the code. */
  discount: z.number().optional(),
  promotionCode: z.string().nullable().optional(),
  stripePaymentId: z.string().nullable(),
  planName: z.string().nullable(),
  metadata: z.object({
    packageName: z.string().nullable(),
    invoiceNumber: z.string().nullable(),
  }),
  /** Why a `failed` payment failed (a decline, a paid amount that differs from the price). */
  failureReason: z.string().nullable().optional(),
  /** When the fan withdrew from this purchase (withdrawal.ts); null when not. */
  withdrawnAt: z.string().nullable().optional(),
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
  /** What a promotion code took off (major units; `amount` is what was paid), and the code. */
  discount: z.number().optional(),
  promotionCode: z.string().nullable().optional(),
  /**
   * Money is left that the operator may give back: a successful payment, or a failed one the
   * provider charged anyway (a wrong amount, decision 0036), not yet refunded in whole.
   */
  refundable: z.boolean().optional(),
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
  /** What a promotion code took off (major units; `amount` is what was paid), and the code. */
  discount: z.number().optional(),
  promotionCode: z.string().nullable().optional(),
  /**
   * Money is left that the operator may give back: a successful payment, or a failed one the
   * provider charged anyway (a wrong amount, decision 0036), not yet refunded in whole.
   */
  refundable: z.boolean().optional(),
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

/** A date filter: yyyy-MM-dd (a UTC day; as an end date it includes the whole day) or an ISO
 * date-time. Impossible dates (2026-02-30) and years outside the query years are a 400. */
const dateFilter = (field: string) =>
  queryDateOrTime(`${field} must be a date (yyyy-MM-dd) or an ISO date-time`).optional();

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
