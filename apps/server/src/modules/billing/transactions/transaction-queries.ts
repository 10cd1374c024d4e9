import type {
  AdminCreditTransactionsQuery,
  AdminSubscriptionHistoryQuery,
  AdminSubscriptionTransactionsQuery,
} from "@twinline/contracts";
import { type AnyColumn, and, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  payments,
  type SubscriptionEventRow,
  subscriptionEvents,
  users,
} from "../../../db/schema/index.ts";
import { dateRange } from "../../../lib/date-range.ts";
import { type PageRequest, pageOffset } from "../../../lib/paging.ts";
import { containsPattern, isUuid } from "../../../lib/search.ts";
import { type PopulatedUser, toHistoryEvent } from "./mappers.ts";
import { historySortColumn, order, paymentSortColumn } from "./sort-columns.ts";

export type PaymentsQuery = AdminCreditTransactionsQuery | AdminSubscriptionTransactionsQuery;

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

export const paymentsWhere = (kind: "credits" | "subscription", query: PaymentsQuery) =>
  and(
    eq(payments.kind, kind),
    query.status !== "all" ? eq(payments.status, query.status) : undefined,
    userFilter(payments.userId, query.userId),
    ...dateRange(payments.transactionDate, query.startDate, query.endDate),
  );

/** One page of payments with their users, in one sort; the id breaks ties. */
export const paymentPage = (
  db: Database,
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
export const paymentRows = (
  db: Database,
  kind: "credits" | "subscription",
  query: PaymentsQuery,
  page: PageRequest,
) =>
  paymentPage(
    db,
    paymentsWhere(kind, query),
    { column: paymentSortColumn(query.sortBy), direction: query.sortOrder },
    page,
  );

export const historyRows = (db: Database, where: SQL | undefined) =>
  db
    .select({ event: subscriptionEvents, user: populated })
    .from(subscriptionEvents)
    .leftJoin(users, eq(users.id, subscriptionEvents.userId))
    .where(where);

export const toEvent = (row: { event: SubscriptionEventRow; user: PopulatedUser | null }) =>
  toHistoryEvent(row.event, row.user);

export const historyWhere = (query: AdminSubscriptionHistoryQuery) =>
  and(
    query.status !== "all" ? eq(subscriptionEvents.status, query.status) : undefined,
    query.eventType !== "all" ? eq(subscriptionEvents.eventType, query.eventType) : undefined,
    userFilter(subscriptionEvents.userId, query.userId),
    ...dateRange(subscriptionEvents.timestamp, query.startDate, query.endDate),
  );

export const historyPage = (
  db: Database,
  query: AdminSubscriptionHistoryQuery,
  page: number,
  limit: number,
) =>
  historyRows(db, historyWhere(query))
    .orderBy(
      order(historySortColumn(query.sortBy), query.sortOrder),
      order(subscriptionEvents.id, query.sortOrder),
    )
    .limit(limit)
    .offset(pageOffset({ page, limit }));
