import { z } from "zod";
import { userGrowthSchema } from "./admin";
import { paginationSchema } from "./api";
import { currencySchema, moneyMetricSchema } from "./billing/index";
import { subscriptionViewStatusSchema } from "./billing/shared";

/** Strings the database stores or compares must carry no NUL byte nor lone surrogate. */
const safeText = z
  .string()
  .refine(
    (value) =>
      !value.includes("\u0000") &&
      !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value),
    {
      error: "must not contain NUL bytes or lone surrogates",
    },
  );

// ─── User overview (user-side spec, section 3 "Dashboard metrics") ───────────────────────────

export const recentCreditPurchaseSchema = z.object({
  transactionDate: z.string(),
  credits: z.number().int(),
  /** Major units (dollars), as the spec shows amounts. */
  amount: z.number(),
  currency: currencySchema,
});

/** Credits spent on one UTC day (the overview's 30-day chart). */
export const dailyCreditUseSchema = z.object({ date: z.string(), credits: z.number().int() });

export const userDashboardMetricsSchema = z.object({
  user: z.object({
    credits: z.number().int(),
    createdAt: z.string(),
    subscription: z.object({
      status: subscriptionViewStatusSchema,
      planName: z.string().nullable(),
      endDate: z.string().nullable(),
    }),
  }),
  calls: z.object({
    total: z.number().int(),
    /** Seconds. */
    totalDuration: z.number().int(),
    /** Minutes billed: each call's started minutes (a call of 20 s bills one). */
    minutesBilled: z.number().int(),
    lastCallDate: z.string().nullable(),
  }),
  messages: z.object({
    total: z.number().int(),
    remaining: z.union([z.number().int(), z.literal("unlimited")]),
  }),
  creditUsage: z.object({
    /** Credits spent in all (voice minutes and every other debit of the ledger). */
    total: z.number().int(),
    /** The three newest successful credit purchases. */
    recent: z.array(recentCreditPurchaseSchema),
    /** Credits spent per UTC day over the last 30 days, oldest first, every day present. */
    daily: z.array(dailyCreditUseSchema),
  }),
  /** The newest of the last message, the last call and the last login; null when none. */
  lastActivity: z.string().nullable(),
});
export type UserDashboardMetrics = z.infer<typeof userDashboardMetricsSchema>;

export const userDashboardMetricsResponseSchema = z.object({
  success: z.literal(true),
  data: userDashboardMetricsSchema,
});

// ─── Admin dashboard (admin-side spec, section 3 "Dashboard metrics") ─────────────────────────

const metric = z.object({ value: z.number() });

/**
 * Every figure of the admin dashboard, each `{ value }`; revenue as a money metric: `value` in
 * dollars (major units), and each currency beside it (never added together).
 */
export const adminDashboardMetricsSchema = userGrowthSchema.extend({
  totalRevenue: moneyMetricSchema,
  totalPaidUsers: metric,
  /** Percent (0–100, one decimal) of users who have made at least one voice call. */
  conversionRate: metric,
  todayRevenue: moneyMetricSchema,
  yesterdayRevenue: moneyMetricSchema,
  thisMonthRevenue: moneyMetricSchema,
  lastMonthRevenue: moneyMetricSchema,
});
export type AdminDashboardMetrics = z.infer<typeof adminDashboardMetricsSchema>;

export const adminDashboardFullResponseSchema = z.object({
  success: z.literal(true),
  data: adminDashboardMetricsSchema,
});

export const DASHBOARD_SERIES_DAYS = [30, 90] as const;

export const adminDashboardSeriesQuerySchema = z.object({
  days: z.coerce
    .number()
    .int()
    .refine((v) => v === 30 || v === 90, { error: "days must be 30 or 90" })
    .default(30),
});

export const dashboardSeriesPointSchema = z.object({
  /** A UTC day, yyyy-MM-dd. */
  date: z.string(),
  signups: z.number().int(),
  /** Dollars. */
  revenue: z.number(),
  callMinutes: z.number(),
});
export type DashboardSeriesPoint = z.infer<typeof dashboardSeriesPointSchema>;

export const adminDashboardSeriesResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ days: z.number().int(), points: z.array(dashboardSeriesPointSchema) }),
});

// ─── User analytics (admin-side spec, section 3 "User analytics response") ───────────────────

export const USER_ANALYTICS_SORT_FIELDS = [
  "lastInteraction",
  "interactionTime",
  "creditsUsed",
  "name",
  "email",
] as const;

export const userAnalyticsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  sortBy: z.enum(USER_ANALYTICS_SORT_FIELDS).default("lastInteraction"),
  sortOrder: z.coerce
    .number()
    .int()
    .refine((v) => v === 1 || v === -1, { error: "sortOrder must be 1 or -1" })
    .default(-1),
  search: safeText.pipe(z.string().trim().max(200)).optional(),
});
export type UserAnalyticsQuery = z.infer<typeof userAnalyticsQuerySchema>;

export const userInteractionSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  profileImage: z.string().nullable(),
  /** Seconds: call time plus chat session time (docs/decisions/0026). */
  interactionTime: z.number().int(),
  creditsUsed: z.number().int(),
  lastInteraction: z.string().nullable(),
});
export type UserInteraction = z.infer<typeof userInteractionSchema>;

export const userAnalyticsSchema = z.object({
  userInteractions: z.array(userInteractionSchema),
  totalInteractedUsers: z.number().int(),
  /** Seconds. */
  totalInteractionTime: z.number().int(),
  /** Seconds, rounded. */
  avgInteractionTime: z.number().int(),
});
export type UserAnalytics = z.infer<typeof userAnalyticsSchema>;

export const userAnalyticsResponseSchema = z.object({
  success: z.literal(true),
  data: userAnalyticsSchema,
  pagination: paginationSchema,
});
