import {
  type AdminCreditTransaction,
  type AdminCreditTransactionsQuery,
  type AdminSubscriptionHistoryQuery,
  type AdminSubscriptionTransaction,
  type AdminSubscriptionTransactionsQuery,
  type AdminUserTransactionSortField,
  CURRENCIES,
  type MoneyMetric,
  type Pagination,
  type RevenueFigures,
  type SubscriptionHistoryEvent,
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
  type PaymentRow,
  paymentCounts,
  payments,
  type SubscriptionEventRow,
  subscriptionEvents,
  users,
} from "../../db/schema/index.ts";
import { type RevenueKind, revenueFigures } from "../dashboards/revenue.ts";
import { containsPattern } from "../users/repository.ts";
import {
  failureReasonOf,
  type PopulatedUser,
  toHistoryEvent,
  toUserTransaction,
} from "./mappers.ts";
import { toMajor } from "./money.ts";

/** Rows read at a time by an export. */
export const EXPORT_BATCH = 500;

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
    failureReason: failureReasonOf(row),
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
    failureReason: failureReasonOf(row),
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

  type PaymentsQuery = AdminCreditTransactionsQuery | AdminSubscriptionTransactionsQuery;
  const paymentsWhere = (kind: "credits" | "subscription", query: PaymentsQuery) =>
    and(
      eq(payments.kind, kind),
      query.status !== "all" ? eq(payments.status, query.status) : undefined,
      userFilter(payments.userId, query.userId),
      ...dateRange(payments.transactionDate, query.startDate, query.endDate),
    );
  /** One page of a kind's payments as filtered and sorted (the list and the export). */
  const paymentRows = (
    kind: "credits" | "subscription",
    query: PaymentsQuery,
    page: number,
    limit: number,
  ) =>
    db
      .select({ payment: payments, user: populated })
      .from(payments)
      .leftJoin(users, eq(users.id, payments.userId))
      .where(paymentsWhere(kind, query))
      .orderBy(
        order(paymentSort(query.sortBy), query.sortOrder),
        order(payments.id, query.sortOrder),
      )
      .limit(limit)
      .offset((page - 1) * limit);

  const listPayments = async (kind: "credits" | "subscription", query: PaymentsQuery) => {
    const where = paymentsWhere(kind, query);
    const rowsQuery = paymentRows(kind, query, query.page, query.limit);
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

  const userPaymentSort = (sortBy: AdminUserTransactionSortField): SQL | AnyColumn => {
    switch (sortBy) {
      case "credits":
        return payments.credits;
      case "amount":
        return payments.amountMinor;
      case "status":
        return payments.status;
      case "planName":
        return payments.itemName;
      case "transactionId":
        return sql`coalesce(${payments.stripePaymentId}, ${payments.invoiceId})`;
      default:
        return payments.transactionDate;
    }
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

  const historyWhere = (query: AdminSubscriptionHistoryQuery) =>
    and(
      query.status !== "all" ? eq(subscriptionEvents.status, query.status) : undefined,
      query.eventType !== "all" ? eq(subscriptionEvents.eventType, query.eventType) : undefined,
      userFilter(subscriptionEvents.userId, query.userId),
      ...dateRange(subscriptionEvents.timestamp, query.startDate, query.endDate),
    );
  const historyPage = (query: AdminSubscriptionHistoryQuery, page: number, limit: number) =>
    historyRows(historyWhere(query))
      .orderBy(
        order(historySort(query.sortBy), query.sortOrder),
        order(subscriptionEvents.id, query.sortOrder),
      )
      .limit(limit)
      .offset((page - 1) * limit);

  /** Every row of a filtered, sorted list, a batch at a time (the "Export all" CSVs). */
  async function* batches<T>(page: (page: number) => Promise<T[]>): AsyncGenerator<T[]> {
    for (let n = 1; ; n++) {
      const rows = await page(n);
      if (rows.length > 0) yield rows;
      if (rows.length < EXPORT_BATCH) return;
    }
  }

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
      const where = historyWhere(query);
      const [rows, [total]] = await Promise.all([
        historyPage(query, query.page, query.limit),
        db.select({ n: count() }).from(subscriptionEvents).where(where),
      ]);
      return {
        data: rows.map(toEvent),
        pagination: pagination(total?.n ?? 0, query.page, query.limit),
      };
    },

    /** Every credit purchase matching the list's filters, in its order (page and limit unused). */
    exportCredits: (query: AdminCreditTransactionsQuery) =>
      batches(async (page) =>
        (await paymentRows("credits", query, page, EXPORT_BATCH)).map((row) =>
          toAdminCredit(row.payment, row.user),
        ),
      ),
    /** Every subscription payment matching the list's filters, in its order. */
    exportSubscriptionPayments: (query: AdminSubscriptionTransactionsQuery) =>
      batches(async (page) =>
        (await paymentRows("subscription", query, page, EXPORT_BATCH)).map((row) =>
          toAdminSubscriptionPayment(row.payment, row.user),
        ),
      ),
    /** Every subscription event matching the list's filters, in its order. */
    exportHistory: (query: AdminSubscriptionHistoryQuery) =>
      batches(async (page) => (await historyPage(query, page, EXPORT_BATCH)).map(toEvent)),

    async historyEvent(id: string): Promise<SubscriptionHistoryEvent | undefined> {
      const [row] = await historyRows(eq(subscriptionEvents.id, id));
      return row ? toEvent(row) : undefined;
    },

    /**
     * A user's own payments of one kind, newest first unless sorted otherwise; `search` matches
     * part of the row id, the transaction id, the status or the item's name.
     */
    async userPayments(
      userId: string,
      kind: "credits" | "subscription",
      page: number,
      limit: number,
      options: {
        sortBy?: AdminUserTransactionSortField;
        sortOrder?: number;
        search?: string | undefined;
      } = {},
    ) {
      const pattern = options.search?.trim() ? containsPattern(options.search.trim()) : null;
      const where = and(
        eq(payments.kind, kind),
        eq(payments.userId, userId),
        pattern
          ? or(
              ilike(sql`${payments.id}::text`, pattern),
              ilike(payments.stripePaymentId, pattern),
              ilike(payments.invoiceId, pattern),
              ilike(sql`${payments.status}::text`, pattern),
              ilike(payments.itemName, pattern),
            )
          : undefined,
      );
      const direction = options.sortOrder ?? -1;
      const [rows, [total]] = await Promise.all([
        db
          .select({ payment: payments, user: populated })
          .from(payments)
          .leftJoin(users, eq(users.id, payments.userId))
          .where(where)
          .orderBy(
            order(userPaymentSort(options.sortBy ?? "transactionDate"), direction),
            order(payments.id, direction),
          )
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

    /** The Revenue Analytics cards: the dashboard's own figures, per currency. */
    revenue(kind: RevenueKind, now = new Date()): Promise<RevenueFigures> {
      return revenueFigures(db, kind, now);
    },
  };
}

export type TransactionsRepository = ReturnType<typeof createTransactionsRepository>;

/**
 * A user's successful payments per currency, major units (the admin's user details "Total
 * Spent"): USD the headline, other currencies beside it, never added together.
 */
export async function totalSpentOf(db: Database, userId: string): Promise<MoneyMetric> {
  const rows = await db
    .select({
      currency: payments.currency,
      total: sql<string>`coalesce(sum(${payments.amountMinor}), 0)::text`,
    })
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.status, "success")))
    .groupBy(payments.currency);
  const totals = new Map(rows.map((row) => [row.currency, toMajor(Number(row.total))]));
  const byCurrency = CURRENCIES.map((currency) => ({
    currency,
    value: totals.get(currency) ?? 0,
  })).filter((entry) => entry.currency === "usd" || entry.value !== 0);
  return { value: totals.get("usd") ?? 0, byCurrency };
}
