import type {
  AdminCreditTransaction,
  AdminCreditTransactionsQuery,
  AdminSubscriptionHistoryQuery,
  AdminSubscriptionTransaction,
  AdminSubscriptionTransactionsQuery,
  Pagination,
  RevenueFigures,
  SubscriptionHistoryEvent,
} from "@twinline/contracts";
import {
  type AnyColumn,
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  dashboardDays,
  type PaymentRow,
  paymentCounts,
  payments,
  type SubscriptionEventRow,
  subscriptionEvents,
  users,
} from "../../db/schema/index.ts";
import { utcDaySql as day, utcPeriods } from "../dashboards/periods.ts";
import { containsPattern } from "../users/repository.ts";
import { type PopulatedUser, toHistoryEvent, toUserTransaction } from "./mappers.ts";
import { toMajor } from "./money.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export const pagination = (total: number, page: number, limit: number): Pagination => ({
  total,
  page,
  limit,
  pages: Math.ceil(total / limit),
});

/** The date filters: a yyyy-MM-dd end date includes that whole UTC day. */
export function dateRange(column: AnyColumn, startDate?: string, endDate?: string): SQL[] {
  const conditions: SQL[] = [];
  if (startDate) {
    conditions.push(
      gte(column, new Date(DATE_ONLY.test(startDate) ? `${startDate}T00:00:00Z` : startDate)),
    );
  }
  if (endDate) {
    if (DATE_ONLY.test(endDate)) {
      const next = new Date(`${endDate}T00:00:00Z`);
      next.setUTCDate(next.getUTCDate() + 1);
      conditions.push(lt(column, next));
    } else {
      conditions.push(lte(column, new Date(endDate)));
    }
  }
  return conditions;
}

/** The "User ID/Email" filter: a user id, else part of an e-mail or name. */
function userFilter(column: AnyColumn, term?: string): SQL | undefined {
  if (!term) return undefined;
  if (UUID.test(term)) return eq(column, term);
  const pattern = containsPattern(term);
  return inArray(
    column,
    sql`(select ${users.id} from ${users} where ${or(ilike(users.email, pattern), ilike(users.name, pattern))})`,
  );
}

const populated = {
  _id: users.id,
  name: users.name,
  email: users.email,
  profileImage: users.profileImage,
};

function toAdminCredit(row: PaymentRow, user: PopulatedUser | null): AdminCreditTransaction {
  return {
    _id: row.id,
    transactionDate: row.transactionDate.toISOString(),
    userId: user,
    credits: row.credits,
    amount: toMajor(row.amountMinor),
    currency: row.currency,
    status: row.status,
    refundedAmount: toMajor(row.refundedMinor),
    packageId: row.packageId,
    stripePaymentId: row.stripePaymentId,
    metadata: { packageName: row.itemName, invoiceNumber: row.invoiceNumber },
  };
}

function toAdminSubscriptionPayment(
  row: PaymentRow,
  user: PopulatedUser | null,
): AdminSubscriptionTransaction {
  return {
    _id: row.id,
    transactionDate: row.transactionDate.toISOString(),
    userId: user,
    planId: row.planId ? { _id: row.planId, name: row.itemName } : null,
    planName: row.itemName,
    amount: toMajor(row.amountMinor),
    currency: row.currency,
    status: row.status,
    refundedAmount: toMajor(row.refundedMinor),
    stripePaymentId: row.stripePaymentId ?? row.invoiceId,
    invoiceId: row.invoiceId,
    credits: row.credits,
  };
}

const order = (column: SQL | AnyColumn, direction: 1 | -1 | number) =>
  direction === 1 ? asc(column) : desc(column);

/**
 * Payments and subscription history, for the user's own screens and the admin's lists. Each
 * admin filter and sort is served by an index of schema/billing.ts (kind first); the id breaks
 * ties so pages are stable.
 */
export function createTransactionsRepository(db: Database) {
  const paymentSort = (sortBy: string): SQL | AnyColumn => {
    switch (sortBy) {
      case "credits":
        return payments.credits;
      case "amount":
        return payments.amountMinor;
      case "status":
        return payments.status;
      case "packageName":
      case "planName":
        return payments.itemName;
      case "stripePaymentId":
        return payments.stripePaymentId;
      case "user":
        return sql`lower(${users.name})`;
      default:
        return payments.transactionDate;
    }
  };

  const listPayments = async (
    kind: "credits" | "subscription",
    query: AdminCreditTransactionsQuery | AdminSubscriptionTransactionsQuery,
  ) => {
    const where = and(
      eq(payments.kind, kind),
      query.status !== "all" ? eq(payments.status, query.status) : undefined,
      userFilter(payments.userId, query.userId),
      ...dateRange(payments.transactionDate, query.startDate, query.endDate),
    );
    const rowsQuery = db
      .select({ payment: payments, user: populated })
      .from(payments)
      .leftJoin(users, eq(users.id, payments.userId))
      .where(where)
      .orderBy(
        order(paymentSort(query.sortBy), query.sortOrder),
        order(payments.id, query.sortOrder),
      )
      .limit(query.limit)
      .offset((query.page - 1) * query.limit);
    // Unfiltered by user or date: the trigger-kept counts, not a count over the whole table.
    const counted =
      !query.userId && !query.startDate && !query.endDate
        ? db
            .select({ n: sql<number>`coalesce(sum(${paymentCounts.n}), 0)::bigint` })
            .from(paymentCounts)
            .where(
              and(
                eq(paymentCounts.kind, kind),
                query.status !== "all" ? eq(paymentCounts.status, query.status) : undefined,
              ),
            )
        : db.select({ n: count() }).from(payments).where(where);
    const [rows, [total]] = await Promise.all([rowsQuery, counted]);
    return { rows, total: Number(total?.n ?? 0) };
  };

  const historySort = (sortBy: string): SQL | AnyColumn => {
    switch (sortBy) {
      case "eventType":
        return subscriptionEvents.eventType;
      case "status":
        return subscriptionEvents.status;
      case "amount":
        return subscriptionEvents.amountMinor;
      case "startDate":
        return subscriptionEvents.startDate;
      case "endDate":
        return subscriptionEvents.endDate;
      case "planName":
        return subscriptionEvents.planName;
      case "user":
        return sql`lower(${users.name})`;
      default:
        return subscriptionEvents.timestamp;
    }
  };

  const historyRows = (where: SQL | undefined) =>
    db
      .select({ event: subscriptionEvents, user: populated })
      .from(subscriptionEvents)
      .leftJoin(users, eq(users.id, subscriptionEvents.userId))
      .where(where);

  const toEvent = (row: { event: SubscriptionEventRow; user: PopulatedUser | null }) =>
    toHistoryEvent(row.event, row.user);

  return {
    async adminCreditTransactions(query: AdminCreditTransactionsQuery) {
      const { rows, total } = await listPayments("credits", query);
      return {
        data: rows.map((row) => toAdminCredit(row.payment, row.user)),
        pagination: pagination(total, query.page, query.limit),
      };
    },

    async adminSubscriptionTransactions(query: AdminSubscriptionTransactionsQuery) {
      const { rows, total } = await listPayments("subscription", query);
      return {
        data: rows.map((row) => toAdminSubscriptionPayment(row.payment, row.user)),
        pagination: pagination(total, query.page, query.limit),
      };
    },

    async adminSubscriptionHistory(query: AdminSubscriptionHistoryQuery) {
      const where = and(
        query.status !== "all" ? eq(subscriptionEvents.status, query.status) : undefined,
        query.eventType !== "all" ? eq(subscriptionEvents.eventType, query.eventType) : undefined,
        userFilter(subscriptionEvents.userId, query.userId),
        ...dateRange(subscriptionEvents.timestamp, query.startDate, query.endDate),
      );
      const [rows, [total]] = await Promise.all([
        historyRows(where)
          .orderBy(
            order(historySort(query.sortBy), query.sortOrder),
            order(subscriptionEvents.id, query.sortOrder),
          )
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        db.select({ n: count() }).from(subscriptionEvents).where(where),
      ]);
      return {
        data: rows.map(toEvent),
        pagination: pagination(total?.n ?? 0, query.page, query.limit),
      };
    },

    async historyEvent(id: string): Promise<SubscriptionHistoryEvent | undefined> {
      const [row] = await historyRows(eq(subscriptionEvents.id, id));
      return row ? toEvent(row) : undefined;
    },

    /** A user's own payments of one kind, newest first. */
    async userPayments(
      userId: string,
      kind: "credits" | "subscription",
      page: number,
      limit: number,
    ) {
      const where = and(eq(payments.kind, kind), eq(payments.userId, userId));
      const [rows, [total]] = await Promise.all([
        db
          .select({ payment: payments, user: populated })
          .from(payments)
          .leftJoin(users, eq(users.id, payments.userId))
          .where(where)
          .orderBy(desc(payments.transactionDate), desc(payments.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(payments).where(where),
      ]);
      return {
        user: rows.map((row) => toUserTransaction(row.payment)),
        adminCredits: rows.map((row) => toAdminCredit(row.payment, row.user)),
        adminSubscriptions: rows.map((row) => toAdminSubscriptionPayment(row.payment, row.user)),
        pagination: pagination(total?.n ?? 0, page, limit),
      };
    },

    /** A user's subscription events, newest first. */
    async userHistory(userId: string, page: number, limit: number) {
      const where = eq(subscriptionEvents.userId, userId);
      const [rows, [total]] = await Promise.all([
        historyRows(where)
          .orderBy(desc(subscriptionEvents.timestamp), desc(subscriptionEvents.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(subscriptionEvents).where(where),
      ]);
      return { data: rows.map(toEvent), pagination: pagination(total?.n ?? 0, page, limit) };
    },

    /**
     * Successful payments by UTC day and month (the Revenue Analytics cards), in any currency
     * added as given, from the dashboard's rollup (dashboard_days: a few rows a day).
     */
    async revenue(
      kind: "all" | "credits" | "subscriptions",
      now = new Date(),
    ): Promise<RevenueFigures> {
      const p = utcPeriods(now);
      const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      const minor =
        kind === "credits"
          ? sql`${dashboardDays.creditsRevenueMinor}`
          : kind === "subscriptions"
            ? sql`${dashboardDays.subscriptionRevenueMinor}`
            : sql`${dashboardDays.creditsRevenueMinor} + ${dashboardDays.subscriptionRevenueMinor}`;
      const between = (from: Date, to: Date) =>
        sql<number>`coalesce(sum(${minor}) filter (where ${dashboardDays.day} >= ${day(from)} and ${dashboardDays.day} < ${day(to)}), 0)::float8`;
      const [row] = await db
        .select({
          total: sql<number>`coalesce(sum(${minor}), 0)::float8`,
          today: between(p.today, p.tomorrow),
          yesterday: between(p.yesterday, p.today),
          thisMonth: between(p.thisMonth, nextMonth),
          lastMonth: between(p.lastMonth, p.thisMonth),
        })
        .from(dashboardDays);
      const value = (minor: unknown) => ({ value: toMajor(Number(minor ?? 0)) });
      return {
        totalRevenue: value(row?.total),
        todayRevenue: value(row?.today),
        yesterdayRevenue: value(row?.yesterday),
        thisMonthRevenue: value(row?.thisMonth),
        lastMonthRevenue: value(row?.lastMonth),
      };
    },
  };
}

export type TransactionsRepository = ReturnType<typeof createTransactionsRepository>;

/** A user's successful payments, major units (the admin's user details "totalSpent"). */
export async function totalSpentOf(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${payments.amountMinor}), 0)::bigint` })
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.status, "success")));
  return toMajor(Number(row?.total ?? 0));
}
