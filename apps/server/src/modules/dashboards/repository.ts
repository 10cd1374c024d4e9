import type { UserAnalyticsQuery } from "@twinline/contracts";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  chatMessages,
  creditLedger,
  dashboardDays,
  payments,
  users,
  voiceCalls,
} from "../../db/schema/index.ts";
import { containsPattern } from "../users/repository.ts";
import { utcDaySql as day, type UtcPeriods } from "./periods.ts";
import { dailyUsdRevenue, type RevenueKind, revenueFigures } from "./revenue.ts";

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
}

const ANALYTICS_SORTS: Record<UserAnalyticsQuery["sortBy"], string> = {
  lastInteraction: "last_interaction",
  interactionTime: "interaction_time",
  creditsUsed: "credits_used",
  name: "lower(name)",
  email: "lower(email)",
};

export function createDashboardsRepository(db: Database) {
  // Both drivers answer raw statements with { rows }.
  const run = async <T>(query: SQL) => (await db.execute(query)) as unknown as { rows: T[] };
  const toDate = (value: unknown) => (value ? new Date(value as string) : null);

  /**
   * Every user (not admin) who chatted or called, with their interaction time, credits used and
   * last interaction. Chat time per decision 0026: each message's gap to the user's previous one
   * counts when within the session gap, plus the allowance per user message.
   */
  const interactions = () => sql`
    with gaps as (
      select ${chatMessages.userId} as user_id, ${chatMessages.sender} as sender,
        ${chatMessages.createdAt} as created_at,
        extract(epoch from ${chatMessages.createdAt} - lag(${chatMessages.createdAt})
          over (partition by ${chatMessages.userId} order by ${chatMessages.createdAt}, ${chatMessages.seq})) as gap
      from ${chatMessages}
    ),
    chat as (
      select user_id,
        coalesce(sum(gap) filter (where gap <= ${CHAT_SESSION_GAP_SECONDS}), 0)
          + ${CHAT_MESSAGE_ALLOWANCE_SECONDS} * count(*) filter (where sender = 'user') as seconds,
        max(created_at) as last_at
      from gaps group by user_id
    ),
    calls as (
      select ${voiceCalls.userId} as user_id, sum(${voiceCalls.durationSeconds}) as seconds,
        max(coalesce(${voiceCalls.endedAt}, ${voiceCalls.startedAt})) as last_at
      from ${voiceCalls} group by ${voiceCalls.userId}
    ),
    active as (
      select user_id from chat union select user_id from calls
    ),
    spent as (
      select ${creditLedger.userId} as user_id, sum(-${creditLedger.amount}) as credits
      from ${creditLedger} where ${creditLedger.amount} < 0 group by ${creditLedger.userId}
    ),
    interactions as (
      select u.id, u.name, u.email, u.profile_image,
        round(coalesce(c.seconds, 0) + coalesce(v.seconds, 0))::int as interaction_time,
        coalesce(s.credits, 0)::int as credits_used,
        greatest(c.last_at, v.last_at) as last_interaction
      from active a
      join ${users} u on u.id = a.user_id and u.role = 'user'
      left join chat c on c.user_id = a.user_id
      left join calls v on v.user_id = a.user_id
      left join spent s on s.user_id = a.user_id
    )`;

  return {
    /** Credits a user spent in all, and their last message. Served by the user's indexes. */
    async userActivity(userId: string): Promise<UserActivityRow> {
      const { rows } = await run<{
        credits_used: number;
        last_message_at: unknown;
        calls: number;
        call_seconds: number;
        last_call_at: unknown;
      }>(sql`
        select
          (select coalesce(sum(-${creditLedger.amount}), 0)::int from ${creditLedger}
            where ${creditLedger.userId} = ${userId} and ${creditLedger.amount} < 0) as credits_used,
          (select max(${chatMessages.createdAt}) from ${chatMessages}
            where ${chatMessages.userId} = ${userId}) as last_message_at,
          calls.*
        from (select count(*)::int as calls,
            coalesce(sum(${voiceCalls.durationSeconds}), 0)::int as call_seconds,
            max(${voiceCalls.startedAt}) as last_call_at
          from ${voiceCalls} where ${voiceCalls.userId} = ${userId}) as calls`);
      const row = rows[0];
      return {
        creditsUsed: Number(row?.credits_used ?? 0),
        lastMessageAt: toDate(row?.last_message_at),
        calls: Number(row?.calls ?? 0),
        callSeconds: Number(row?.call_seconds ?? 0),
        lastCallAt: toDate(row?.last_call_at),
      };
    },

    /** Credits a user spent per UTC day from `since` on (days with none are absent). */
    async dailyCreditUse(userId: string, since: Date): Promise<Map<string, number>> {
      const { rows } = await run<{ day: string; credits: number }>(sql`
        select to_char(${creditLedger.createdAt} at time zone 'UTC', 'YYYY-MM-DD') as day,
          sum(-${creditLedger.amount})::int as credits
        from ${creditLedger}
        where ${creditLedger.userId} = ${userId} and ${creditLedger.createdAt} >= ${at(since)}
          and ${creditLedger.amount} < 0
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

    /** One page of the interactions, sorted and searched, with the totals over every user. */
    async userAnalytics(query: UserAnalyticsQuery) {
      const search = query.search
        ? sql`where name ilike ${containsPattern(query.search)} or email ilike ${containsPattern(query.search)}`
        : sql``;
      const direction = query.sortOrder === 1 ? "asc" : "desc";
      const order = sql.raw(
        `${ANALYTICS_SORTS[query.sortBy]} ${direction} nulls last, id ${direction}`,
      );
      const { rows } = await run<{
        id: string;
        name: string;
        email: string;
        profile_image: string | null;
        interaction_time: number;
        credits_used: number;
        last_interaction: unknown;
        matched: number;
        total_users: number;
        total_time: number;
      }>(sql`
        ${interactions()},
        totals as (select count(*)::int as total_users, coalesce(sum(interaction_time), 0)::float8 as total_time from interactions),
        matched as (select * from interactions ${search}),
        counted as (select count(*)::int as matched from matched),
        page as (select * from matched
          order by ${order} limit ${query.limit} offset ${(query.page - 1) * query.limit})
        select totals.*, counted.*, page.* from totals cross join counted left join page on true
        order by ${order}`);
      const first = rows[0];
      const items: InteractionRow[] = rows
        .filter((row) => row.id !== null)
        .map((row) => ({
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
        matched: Number(first?.matched ?? 0),
        totalUsers: Number(first?.total_users ?? 0),
        totalTime: Math.round(Number(first?.total_time ?? 0)),
      };
    },
  };
}

export type DashboardsRepository = ReturnType<typeof createDashboardsRepository>;
