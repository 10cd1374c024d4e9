import type { UserAnalyticsQuery } from "@twinline/contracts";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  chatMessages,
  creditLedger,
  payments,
  userSubscriptions,
  users,
  voiceCalls,
} from "../../db/schema/index.ts";
import { containsPattern } from "../users/repository.ts";
import type { UtcPeriods } from "./periods.ts";

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

/** The currency the dashboards' revenue is counted in (docs/decisions/0027). */
export const REVENUE_CURRENCY = "usd";

/** Revenue in cents per period. */
export interface RevenueCents {
  today: number;
  yesterday: number;
  thisMonth: number;
  lastMonth: number;
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

    /** Accounts with the user role: in all, and signed up in each period (created_at index). */
    async userGrowth(periods: UtcPeriods) {
      const { rows } = await run<Record<string, number>>(sql`
        select
          ((select count(*) from ${users}) - (select count(*) from ${users} where ${users.role} = 'admin'))::int as total,
          (count(*) filter (where ${users.createdAt} >= ${at(periods.today)}))::int as today,
          (count(*) filter (where ${users.createdAt} >= ${at(periods.yesterday)}
            and ${users.createdAt} < ${at(periods.today)}))::int as yesterday,
          (count(*) filter (where ${users.createdAt} >= ${at(periods.thisMonth)}))::int as this_month,
          (count(*) filter (where ${users.createdAt} < ${at(periods.thisMonth)}))::int as last_month
        from ${users}
        where ${users.createdAt} >= ${at(periods.lastMonth)} and ${users.role} = 'user'`);
      const row = rows[0] ?? {};
      return {
        total: Number(row.total ?? 0),
        today: Number(row.today ?? 0),
        yesterday: Number(row.yesterday ?? 0),
        thisMonth: Number(row.this_month ?? 0),
        lastMonth: Number(row.last_month ?? 0),
      };
    },

    /** Sign-ups (users, not admins) per UTC day from `since` on. */
    async dailySignups(since: Date): Promise<Map<string, number>> {
      const { rows } = await run<{ day: string; count: number }>(sql`
        select to_char(${users.createdAt} at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as count
        from ${users}
        where ${users.createdAt} >= ${at(since)} and ${users.role} = 'user'
        group by 1`);
      return new Map(rows.map((row) => [row.day, Number(row.count)]));
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

    /** Successful payments in the revenue currency, in cents, per UTC period. */
    async revenue(periods: UtcPeriods): Promise<RevenueCents> {
      // Both kinds named, so payments_kind_status_date_idx serves the date range (two scans).
      const success = sql`${payments.kind} in ('credits', 'subscription') and ${payments.status} = 'success' and ${payments.currency} = ${REVENUE_CURRENCY}`;
      const { rows } = await run<Record<string, number>>(sql`
        select
          coalesce(sum(${payments.amountMinor}) filter (where ${payments.transactionDate} >= ${at(periods.today)}), 0)::float8 as today,
          coalesce(sum(${payments.amountMinor}) filter (where ${payments.transactionDate} >= ${at(periods.yesterday)}
            and ${payments.transactionDate} < ${at(periods.today)}), 0)::float8 as yesterday,
          coalesce(sum(${payments.amountMinor}) filter (where ${payments.transactionDate} >= ${at(periods.thisMonth)}), 0)::float8 as this_month,
          coalesce(sum(${payments.amountMinor}) filter (where ${payments.transactionDate} < ${at(periods.thisMonth)}), 0)::float8 as last_month
        from ${payments}
        where ${success} and ${payments.transactionDate} >= ${at(periods.lastMonth)}
          and ${payments.transactionDate} < ${at(periods.tomorrow)}`);
      const row = rows[0] ?? {};
      return {
        today: Number(row.today ?? 0),
        yesterday: Number(row.yesterday ?? 0),
        thisMonth: Number(row.this_month ?? 0),
        lastMonth: Number(row.last_month ?? 0),
      };
    },

    /** Successful payments in the revenue currency since the start, in cents. */
    async totalRevenue(): Promise<number> {
      const { rows } = await run<{ total: number }>(sql`
        select coalesce(sum(${payments.amountMinor}), 0)::float8 as total from ${payments}
        where ${payments.status} = 'success' and ${payments.currency} = ${REVENUE_CURRENCY}`);
      return Number(rows[0]?.total ?? 0);
    },

    /** Revenue in cents per UTC day from `since` on. */
    async dailyRevenue(since: Date): Promise<Map<string, number>> {
      const { rows } = await run<{ day: string; cents: number }>(sql`
        select to_char(${payments.transactionDate} at time zone 'UTC', 'YYYY-MM-DD') as day,
          sum(${payments.amountMinor})::float8 as cents
        from ${payments}
        where ${payments.kind} in ('credits', 'subscription') and ${payments.status} = 'success'
          and ${payments.currency} = ${REVENUE_CURRENCY} and ${payments.transactionDate} >= ${at(since)}
        group by 1`);
      return new Map(rows.map((row) => [row.day, Number(row.cents)]));
    },

    /**
     * Users (not admins) whose newest subscription carries a subscriber's rights now: active,
     * or canceled with its paid period not yet over (user_subscriptions_user_created_idx).
     */
    async paidUsers(now: Date): Promise<number> {
      const { rows } = await run<{ paid: number }>(sql`
        with latest as (
          select distinct on (s.user_id) s.user_id, s.status, s.current_period_end
          from ${userSubscriptions} s
          order by s.user_id, s.created_at desc
        ), paid as (
          select user_id from latest
          where status = 'active' or (status = 'canceled' and current_period_end > ${at(now)})
        )
        select ((select count(*) from paid)
          - (select count(*) from paid join ${users} u on u.id = paid.user_id and u.role = 'admin'))::int as paid`);
      return Number(rows[0]?.paid ?? 0);
    },

    /**
     * Users (not admins) who have made at least one voice call: the distinct callers (an
     * index-only pass over voice_calls_user_started_idx), less the few admins who called.
     */
    async callers(): Promise<number> {
      const { rows } = await run<{ callers: number }>(sql`
        select
          (select count(distinct ${voiceCalls.userId}) from ${voiceCalls})
          - (select count(*) from ${users} u where u.role = 'admin'
              and exists (select 1 from ${voiceCalls} v where v.user_id = u.id)) as callers`);
      return Number(rows[0]?.callers ?? 0);
    },

    /** Call minutes (duration / 60, unrounded) per UTC day of the call's start, from `since`. */
    async dailyCallMinutes(since: Date): Promise<Map<string, number>> {
      const { rows } = await run<{ day: string; minutes: number }>(sql`
        select to_char(${voiceCalls.startedAt} at time zone 'UTC', 'YYYY-MM-DD') as day,
          (sum(${voiceCalls.durationSeconds}) / 60.0)::float8 as minutes
        from ${voiceCalls}
        where ${voiceCalls.startedAt} >= ${at(since)}
        group by 1`);
      return new Map(rows.map((row) => [row.day, Math.round(Number(row.minutes) * 10) / 10]));
    },

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
