import type { UserAnalyticsQuery } from "@twinline/contracts";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  chatMessages,
  creditLedger,
  dashboardDays,
  type PaymentRow,
  payments,
  userAnalyticsTotals,
  users,
  voiceCalls,
} from "../../db/schema/index.ts";
import { pageOffset } from "../../lib/paging.ts";
import { containsPattern } from "../../lib/search.ts";
import { utcDaySql as day, type UtcPeriods } from "./periods.ts";
import { dailyUsdRevenue, type RevenueKind, revenueFigures } from "./revenue.ts";

/**
 * The ledger kind that is usage (credits spent on the twin): call minutes. Chat messages are free
 * within the daily limit and move no credits. Refunds and admin take-backs lower the balance but
 * are not usage; the kept `users.credits_used` counts the same kind (migration 0020).
 */
const USAGE_KIND = "call_minute";

/**
 * Chat session time (docs/decisions/0026): messages of a user more than this apart belong to
 * different sessions; a session lasts from its first to its last message...
 */
export const CHAT_SESSION_GAP_SECONDS = 30 * 60;
/** ...plus this allowance for each message the user sent (reading and typing it). */
export const CHAT_MESSAGE_ALLOWANCE_SECONDS = 30;

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

export interface UserActivityRow {
  creditsUsed: number;
  lastMessageAt: Date | null;
  calls: number;
  callSeconds: number;
  /** Each call's started minutes, summed: what the calls were billed. */
  minutesBilled: number;
  lastCallAt: Date | null;
}

export interface InteractionRow {
  id: string;
  name: string;
  email: string;
  profileImage: string | null;
  interactionTime: number;
  creditsUsed: number;
  lastInteraction: Date | null;
}

/**
 * The admin dashboard's figures (docs/decisions/0027): users (not admins) signed up in all and in
 * each UTC period, users who have called, and users whose subscription carries a subscriber's
 * rights now. Revenue is per currency: dashboards/revenue.ts.
 */
const ADMIN_FIGURES = [
  "totalUsers",
  "todayUsers",
  "yesterdayUsers",
  "thisMonthUsers",
  "lastMonthUsers",
  "callers",
  "paidUsers",
] as const;
export type AdminFigures = Record<(typeof ADMIN_FIGURES)[number], number>;

/** One UTC day of the admin's charts. */
export interface DailyFigures {
  signups: number;
  revenueCents: number;
  callSeconds: number;
}

export interface RecentPurchaseRow {
  transactionDate: Date;
  credits: number;
  amountMinor: number;
  currency: PaymentRow["currency"];
}

/** Each sort reads its own index (users_analytics_*_idx), ties broken by id. */
const ANALYTICS_SORTS: Record<UserAnalyticsQuery["sortBy"], string> = {
  lastInteraction: "last_interaction_at",
  interactionTime: "interaction_micros",
  creditsUsed: "credits_used",
  name: "lower(name)",
  email: "lower(email)",
};

/** Users who chatted or called: the predicate of the analytics indexes. */
const interacted = sql`${users.role} = 'user' and ${users.lastInteractionAt} is not null`;
/** Whole seconds, rounded half away from zero as the sum of decision 0026 always was. */
const interactionSeconds = sql`round(${users.interactionMicros}::numeric / 1000000)`;

export function createDashboardsRepository(db: Database) {
  // Both drivers answer raw statements with { rows }.
  const run = async <T>(query: SQL) => (await db.execute(query)) as unknown as { rows: T[] };
  const toDate = (value: unknown) => (value ? new Date(value as string) : null);

  return {
    /**
     * Credits a user spent in all (the kept `users.credits_used`: usage, not take-backs), and
     * their last message. Served by the user's indexes.
     */
    async userActivity(userId: string): Promise<UserActivityRow> {
      const { rows } = await run<{
        credits_used: number;
        last_message_at: unknown;
        calls: number;
        call_seconds: number;
        minutes_billed: number;
        last_call_at: unknown;
      }>(sql`
        select
          (select ${users.creditsUsed} from ${users} where ${users.id} = ${userId}) as credits_used,
          (select max(${chatMessages.createdAt}) from ${chatMessages}
            where ${chatMessages.userId} = ${userId}) as last_message_at,
          calls.*
        from (select count(*)::int as calls,
            coalesce(sum(${voiceCalls.durationSeconds}), 0)::int as call_seconds,
            coalesce(sum(${voiceCalls.minutesCharged}), 0)::int as minutes_billed,
            max(${voiceCalls.startedAt}) as last_call_at
          from ${voiceCalls} where ${voiceCalls.userId} = ${userId}) as calls`);
      const row = rows[0];
      return {
        creditsUsed: Number(row?.credits_used ?? 0),
        lastMessageAt: toDate(row?.last_message_at),
        calls: Number(row?.calls ?? 0),
        callSeconds: Number(row?.call_seconds ?? 0),
        minutesBilled: Number(row?.minutes_billed ?? 0),
        lastCallAt: toDate(row?.last_call_at),
      };
    },

    /**
     * Credits a user spent per UTC day from `since` on (days with none are absent): usage only,
     * never a refund's or an admin's take-back (issue 24).
     */
    async dailyCreditUse(userId: string, since: Date): Promise<Map<string, number>> {
      const { rows } = await run<{ day: string; credits: number }>(sql`
        select to_char(${creditLedger.createdAt} at time zone 'UTC', 'YYYY-MM-DD') as day,
          sum(-${creditLedger.amount})::int as credits
        from ${creditLedger}
        where ${creditLedger.userId} = ${userId} and ${creditLedger.createdAt} >= ${at(since)}
          and ${creditLedger.amount} < 0 and ${creditLedger.kind} = ${USAGE_KIND}
        group by 1`);
      return new Map(rows.map((row) => [row.day, Number(row.credits)]));
    },

    /** A user's newest successful credit purchases (payments_kind_user_date_idx). */
    async recentPurchases(userId: string, limit: number): Promise<RecentPurchaseRow[]> {
      const rows = await db
        .select({
          transactionDate: payments.transactionDate,
          credits: payments.credits,
          amountMinor: payments.amountMinor,
          currency: payments.currency,
        })
        .from(payments)
        .where(
          sql`${payments.kind} = 'credits' and ${payments.userId} = ${userId} and ${payments.status} = 'success'`,
        )
        .orderBy(sql`${payments.transactionDate} desc`)
        .limit(limit);
      return rows;
    },

    /**
     * The admin dashboard's figures, from the rollup (dashboard_days: a few rows a day). Paid
     * users: the renewing subscribers, those set to cancel whose period ends after today, and
     * those whose period ends later today (users_subscribed_until_idx).
     */
    async adminFigures(periods: UtcPeriods, now: Date): Promise<AdminFigures> {
      const days = (from: Date, to = periods.tomorrow) =>
        sql`${dashboardDays.day} >= ${day(from)} and ${dashboardDays.day} < ${day(to)}`;
      const { rows } = await run<Record<keyof AdminFigures, unknown>>(sql`
        select
          coalesce(sum(${dashboardDays.signups}), 0)::float8 as "totalUsers",
          coalesce(sum(${dashboardDays.signups}) filter (where ${days(periods.today)}), 0)::float8 as "todayUsers",
          coalesce(sum(${dashboardDays.signups}) filter (where ${days(periods.yesterday, periods.today)}), 0)::float8 as "yesterdayUsers",
          coalesce(sum(${dashboardDays.signups}) filter (where ${days(periods.thisMonth)}), 0)::float8 as "thisMonthUsers",
          coalesce(sum(${dashboardDays.signups}) filter (where ${days(periods.lastMonth, periods.thisMonth)}), 0)::float8 as "lastMonthUsers",
          coalesce(sum(${dashboardDays.callers}), 0)::float8 as "callers",
          (coalesce(sum(${dashboardDays.subscribers}), 0)
            + coalesce(sum(${dashboardDays.cancelling}) filter (where ${dashboardDays.day} >= ${day(periods.tomorrow)}), 0)
            + (select count(*) from ${users}
              where ${users.role} = 'user' and ${users.subscribedUntil} > ${at(now)}
                and ${users.subscribedUntil} < ${at(periods.tomorrow)})
          )::float8 as "paidUsers"
        from ${dashboardDays}`);
      const row = rows[0];
      const figures = {} as AdminFigures;
      for (const key of ADMIN_FIGURES) figures[key] = Number(row?.[key] ?? 0);
      return figures;
    },

    /**
     * Sign-ups, USD revenue in cents and call seconds per UTC day from `since` on (days with none
     * absent).
     */
    async dailySeries(since: Date): Promise<Map<string, DailyFigures>> {
      const [{ rows }, revenue] = await Promise.all([
        run<{ day: string; signups: number; call_seconds: number }>(sql`
          select to_char(${dashboardDays.day}, 'YYYY-MM-DD') as day,
            sum(${dashboardDays.signups})::float8 as signups,
            sum(${dashboardDays.callSeconds})::float8 as call_seconds
          from ${dashboardDays}
          where ${dashboardDays.day} >= ${day(since)}
          group by ${dashboardDays.day}`),
        dailyUsdRevenue(db, since),
      ]);
      const series = new Map<string, DailyFigures>();
      for (const row of rows) {
        series.set(row.day, {
          signups: Number(row.signups),
          revenueCents: 0,
          callSeconds: Number(row.call_seconds),
        });
      }
      for (const [date, cents] of revenue) {
        const figures = series.get(date) ?? { signups: 0, revenueCents: 0, callSeconds: 0 };
        series.set(date, { ...figures, revenueCents: cents });
      }
      return series;
    },

    /** The revenue figures of a kind, per currency (dashboards/revenue.ts). */
    revenue: (kind: RevenueKind, now: Date) => revenueFigures(db, kind, now),

    /**
     * One page of the users who chatted or called, sorted and searched, with the totals over all
     * of them: read from the figures the triggers keep on users and in user_analytics_totals
     * (migration 0016, decision 0048),
     * so the cost follows the number of users shown, not the history behind them.
     */
    async userAnalytics(query: UserAnalyticsQuery) {
      const search = query.search
        ? sql`and (${users.name} ilike ${containsPattern(query.search)} or ${users.email} ilike ${containsPattern(query.search)})`
        : sql``;
      const direction = query.sortOrder === 1 ? "asc" : "desc";
      // No "nulls last": every sorted value is present for these users, and the plain order is
      // the one their indexes give forwards and backwards.
      const order = sql.raw(`${ANALYTICS_SORTS[query.sortBy]} ${direction}, id ${direction}`);
      // With a search, the page query counts its matches too (one trigram scan, not two).
      const [page, totals] = await Promise.all([
        run<{
          id: string;
          name: string;
          email: string;
          profile_image: string | null;
          interaction_time: number;
          credits_used: number;
          last_interaction: unknown;
          matched: number;
        }>(sql`
          select id, name, email, profile_image, ${interactionSeconds}::float8 as interaction_time,
            credits_used::float8 as credits_used, last_interaction_at as last_interaction,
            ${query.search ? sql`count(*) over ()` : sql`0`}::float8 as matched
          from ${users} where ${interacted} ${search}
          order by ${order} limit ${query.limit} offset ${pageOffset(query)}`),
        run<{ total_users: number; total_time: number }>(sql`
          select coalesce(sum(${userAnalyticsTotals.users}), 0)::float8 as total_users,
            coalesce(sum(${userAnalyticsTotals.seconds}), 0)::float8 as total_time
          from ${userAnalyticsTotals}`),
      ]);
      const first = totals.rows[0];
      const totalUsers = Number(first?.total_users ?? 0);
      let matched = query.search ? Number(page.rows[0]?.matched ?? 0) : totalUsers;
      if (query.search && page.rows.length === 0 && query.page > 1) {
        // A page past the last match: count them on their own.
        const counted = await run<{ n: number }>(
          sql`select count(*)::float8 as n from ${users} where ${interacted} ${search}`,
        );
        matched = Number(counted.rows[0]?.n ?? 0);
      }
      const items: InteractionRow[] = page.rows.map((row) => ({
        id: row.id,
        name: row.name,
        email: row.email,
        profileImage: row.profile_image,
        interactionTime: Number(row.interaction_time),
        creditsUsed: Number(row.credits_used),
        lastInteraction: toDate(row.last_interaction),
      }));
      return {
        rows: items,
        matched,
        totalUsers,
        totalTime: Number(first?.total_time ?? 0),
      };
    },
  };
}

export type DashboardsRepository = ReturnType<typeof createDashboardsRepository>;
