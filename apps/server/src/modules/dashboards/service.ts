import type {
  AdminDashboardMetrics,
  DashboardSeriesPoint,
  UserAnalytics,
  UserAnalyticsQuery,
  UserDashboardMetrics,
} from "@twinline/contracts";
import type { Database } from "../../db/client.ts";
import type { UserRow } from "../../db/schema/index.ts";
import { toMajor } from "../../lib/money.ts";
import { pagination } from "../../lib/paging.ts";
import type { ChatService } from "../chat/service.ts";
import { subscriptionOf } from "../users/subscription-state.ts";
import { lastUtcDays, utcPeriods } from "./periods.ts";
import type { DashboardsRepository } from "./repository.ts";

/** Days of the user overview's credit-use chart. */
export const CREDIT_USE_CHART_DAYS = 30;
/** Recent credit purchases on the overview (admin-side spec, section 9: 3 of each kind). */
export const RECENT_PURCHASES = 3;

/** Cents to dollars (every billing currency has two decimals). */

export interface DashboardsServiceOptions {
  repository: DashboardsRepository;
  chat: Pick<ChatService, "usage">;
  /** Where subscriptionOf reads the user's subscription. */
  db: Database;
  /** The clock (tests fix it). */
  now?: () => Date;
  /** The billing clock, payments' dates are on it: revenue's day and month are read on it. */
  billingNow?: () => Date;
}

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const latest = (...dates: (Date | null | undefined)[]) =>
  dates.reduce<Date | null>((max, d) => (d && (!max || d > max) ? d : max), null);

export function createDashboardsService(options: DashboardsServiceOptions) {
  const { repository, chat } = options;
  const now = options.now ?? (() => new Date());
  const billingNow = options.billingNow ?? now;

  return {
    /** GET /api/users/dashboard-metrics (user-side spec, section 3). */
    async userMetrics(user: UserRow): Promise<UserDashboardMetrics> {
      const clock = now();
      const days = lastUtcDays(clock, CREDIT_USE_CHART_DAYS);
      const [usage, activity, daily, recent] = await Promise.all([
        chat.usage(user),
        repository.userActivity(user.id),
        repository.dailyCreditUse(user.id, new Date(`${days[0]}T00:00:00.000Z`)),
        repository.recentPurchases(user.id, RECENT_PURCHASES),
      ]);
      const subscription = await subscriptionOf(options.db, user.id);
      return {
        user: {
          credits: user.credits,
          createdAt: user.createdAt.toISOString(),
          subscription: {
            status: subscription.status,
            planName: subscription.planName,
            endDate: subscription.currentPeriodEnd,
          },
        },
        calls: {
          total: activity.calls,
          totalDuration: activity.callSeconds,
          minutesBilled: activity.minutesBilled,
          lastCallDate: iso(activity.lastCallAt),
        },
        messages: { total: usage.total, remaining: usage.remaining },
        creditUsage: {
          total: activity.creditsUsed,
          recent: recent.map((row) => ({
            transactionDate: row.transactionDate.toISOString(),
            credits: row.credits,
            amount: toMajor(row.amountMinor),
            currency: row.currency,
          })),
          daily: days.map((date) => ({ date, credits: daily.get(date) ?? 0 })),
        },
        lastActivity: iso(latest(activity.lastMessageAt, activity.lastCallAt, user.lastLogin)),
      };
    },

    /** GET /api/admin/dashboard/metrics (admin-side spec, section 3). */
    async adminMetrics(): Promise<AdminDashboardMetrics> {
      const clock = now();
      const [figures, revenue] = await Promise.all([
        repository.adminFigures(utcPeriods(clock), clock),
        repository.revenue("all", billingNow()),
      ]);
      // Percent of users who have called, one decimal.
      const conversionRate =
        figures.totalUsers > 0 ? Math.round((figures.callers / figures.totalUsers) * 1000) / 10 : 0;
      const v = (value: number) => ({ value });
      return {
        totalUsers: v(figures.totalUsers),
        todayUsers: v(figures.todayUsers),
        yesterdayUsers: v(figures.yesterdayUsers),
        thisMonthUsers: v(figures.thisMonthUsers),
        lastMonthUsers: v(figures.lastMonthUsers),
        totalRevenue: revenue.totalRevenue,
        totalPaidUsers: v(figures.paidUsers),
        conversionRate: v(conversionRate),
        todayRevenue: revenue.todayRevenue,
        yesterdayRevenue: revenue.yesterdayRevenue,
        thisMonthRevenue: revenue.thisMonthRevenue,
        lastMonthRevenue: revenue.lastMonthRevenue,
      };
    },

    /** GET /api/admin/dashboard/series: sign-ups, revenue and call minutes per UTC day. */
    async adminSeries(days: number): Promise<{ days: number; points: DashboardSeriesPoint[] }> {
      const dates = lastUtcDays(now(), days);
      const series = await repository.dailySeries(new Date(`${dates[0]}T00:00:00.000Z`));
      const points = dates.map((date) => {
        const day = series.get(date);
        return {
          date,
          signups: day?.signups ?? 0,
          revenue: toMajor(day?.revenueCents ?? 0),
          // Minutes, one decimal.
          callMinutes: Math.round(((day?.callSeconds ?? 0) / 60) * 10) / 10,
        };
      });
      return { days, points };
    },

    /** GET /api/admin/user-analytics: one page of interactions and the totals. */
    async userAnalytics(query: UserAnalyticsQuery) {
      const result = await repository.userAnalytics(query);
      const data: UserAnalytics = {
        userInteractions: result.rows.map((row) => ({
          ...row,
          lastInteraction: iso(row.lastInteraction),
        })),
        totalInteractedUsers: result.totalUsers,
        totalInteractionTime: result.totalTime,
        avgInteractionTime:
          result.totalUsers > 0 ? Math.round(result.totalTime / result.totalUsers) : 0,
      };
      return {
        data,
        pagination: pagination(result.matched, query),
      };
    },
  };
}

export type DashboardsService = ReturnType<typeof createDashboardsService>;
