import type {
  AdminCreditTransactionsQuery,
  AdminSubscriptionHistoryQuery,
  AdminSubscriptionTransactionsQuery,
  AdminUserTransactionSortField,
  RevenueFigures,
  SubscriptionHistoryEvent,
} from "@twinline/contracts";
import {
  type AnyColumn,
  and,
  count,
  desc,
  eq,
  ilike,
  inArray,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  paymentCounts,
  payments,
  type SubscriptionEventRow,
  subscriptionEvents,
  users,
} from "../../../db/schema/index.ts";
import { dateRange } from "../../../lib/date-range.ts";
import { type PageRequest, pageOffset, pagination } from "../../../lib/paging.ts";
import { containsPattern, isUuid } from "../../../lib/search.ts";
import { type RevenueKind, revenueFigures } from "../../dashboards/revenue.ts";
import {
  type PopulatedUser,
  toAdminCredit,
  toAdminSubscriptionPayment,
  toHistoryEvent,
  toUserTransaction,
} from "./mappers.ts";
import { historySortColumn, order, paymentSortColumn } from "./sort-columns.ts";

/** Rows read at a time by an export. */
export const EXPORT_BATCH = 500;

/** The "User ID/Email" filter: a user id, else part of an e-mail or name. */
function userFilter(column: AnyColumn, term?: string): SQL | undefined {
  if (!term) return undefined;
  if (isUuid(term)) return eq(column, term);
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

/**
 * Payments and subscription history, for the user's own screens and the admin's lists. Each
 * admin filter and sort is served by an index of schema/billing.ts (kind first); the id breaks
 * ties so pages are stable.
 */
export function createTransactionsRepository(db: Database) {
  type PaymentsQuery = AdminCreditTransactionsQuery | AdminSubscriptionTransactionsQuery;
  const paymentsWhere = (kind: "credits" | "subscription", query: PaymentsQuery) =>
    and(
      eq(payments.kind, kind),
      query.status !== "all" ? eq(payments.status, query.status) : undefined,
      userFilter(payments.userId, query.userId),
      ...dateRange(payments.transactionDate, query.startDate, query.endDate),
    );
  /** One page of payments with their users, in one sort; the id breaks ties. */
  const paymentPage = (
    where: SQL | undefined,
    sort: { column: SQL | AnyColumn; direction: number },
    page: PageRequest,
  ) =>
    db
      .select({ payment: payments, user: populated })
      .from(payments)
      .leftJoin(users, eq(users.id, payments.userId))
      .where(where)
      .orderBy(order(sort.column, sort.direction), order(payments.seq, sort.direction))
      .limit(page.limit)
      .offset(pageOffset(page));
  /** One page of a kind's payments as filtered and sorted (the list and the export). */
  const paymentRows = (kind: "credits" | "subscription", query: PaymentsQuery, page: PageRequest) =>
    paymentPage(
      paymentsWhere(kind, query),
      { column: paymentSortColumn(query.sortBy), direction: query.sortOrder },
      page,
    );

  const listPayments = async (kind: "credits" | "subscription", query: PaymentsQuery) => {
    const where = paymentsWhere(kind, query);
    const rowsQuery = paymentRows(kind, query, query);
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
        order(historySortColumn(query.sortBy), query.sortOrder),
        order(subscriptionEvents.id, query.sortOrder),
      )
      .limit(limit)
      .offset(pageOffset({ page, limit }));

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
        pagination: pagination(total, query),
      };
    },

    async adminSubscriptionTransactions(query: AdminSubscriptionTransactionsQuery) {
      const { rows, total } = await listPayments("subscription", query);
      return {
        data: rows.map((row) => toAdminSubscriptionPayment(row.payment, row.user)),
        pagination: pagination(total, query),
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
        pagination: pagination(total?.n ?? 0, query),
      };
    },

    /** Every credit purchase matching the list's filters, in its order (page and limit unused). */
    exportCredits: (query: AdminCreditTransactionsQuery) =>
      batches(async (page) =>
        (await paymentRows("credits", query, { page, limit: EXPORT_BATCH })).map((row) =>
          toAdminCredit(row.payment, row.user),
        ),
      ),
    /** Every subscription payment matching the list's filters, in its order. */
    exportSubscriptionPayments: (query: AdminSubscriptionTransactionsQuery) =>
      batches(async (page) =>
        (await paymentRows("subscription", query, { page, limit: EXPORT_BATCH })).map((row) =>
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
      const [rows, [total]] = await Promise.all([
        paymentPage(
          where,
          {
            column: paymentSortColumn(options.sortBy ?? "transactionDate"),
            direction: options.sortOrder ?? -1,
          },
          { page, limit },
        ),
        db.select({ n: count() }).from(payments).where(where),
      ]);
      return {
        user: rows.map((row) => toUserTransaction(row.payment)),
        adminCredits: rows.map((row) => toAdminCredit(row.payment, row.user)),
        adminSubscriptions: rows.map((row) => toAdminSubscriptionPayment(row.payment, row.user)),
        pagination: pagination(total?.n ?? 0, { page, limit }),
      };
    },

    /** A user's subscription events, newest first. */
    async userHistory(userId: string, page: number, limit: number) {
      const where = eq(subscriptionEvents.userId, userId);
      const [rows, [total]] = await Promise.all([
        historyRows(where)
          .orderBy(desc(subscriptionEvents.timestamp), desc(subscriptionEvents.id))
          .limit(limit)
          .offset(pageOffset({ page, limit })),
        db.select({ n: count() }).from(subscriptionEvents).where(where),
      ]);
      return { data: rows.map(toEvent), pagination: pagination(total?.n ?? 0, { page, limit }) };
    },

    /** The Revenue Analytics cards: the dashboard's own figures, per currency. */
    revenue(kind: RevenueKind, now = new Date()): Promise<RevenueFigures> {
      return revenueFigures(db, kind, now);
    },
  };
}

export type TransactionsRepository = ReturnType<typeof createTransactionsRepository>;
