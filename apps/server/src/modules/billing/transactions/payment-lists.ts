import type {
  AdminCreditTransactionsQuery,
  AdminSubscriptionTransactionsQuery,
  AdminUserTransactionSortField,
} from "@twinline/contracts";
import { and, count, eq, ilike, or, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { paymentCounts, payments } from "../../../db/schema/index.ts";
import { pagination } from "../../../lib/paging.ts";
import { containsPattern } from "../../../lib/search.ts";
import { toAdminCredit, toAdminSubscriptionPayment, toUserTransaction } from "./mappers.ts";
import { paymentSortColumn } from "./sort-columns.ts";
import {
  type PaymentsQuery,
  paymentPage,
  paymentRows,
  paymentsWhere,
} from "./transaction-queries.ts";

async function listPayments(db: Database, kind: "credits" | "subscription", query: PaymentsQuery) {
  const where = paymentsWhere(kind, query);
  const rowsQuery = paymentRows(db, kind, query, query);
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
}

export async function adminCreditTransactions(db: Database, query: AdminCreditTransactionsQuery) {
  const { rows, total } = await listPayments(db, "credits", query);
  return {
    data: rows.map((row) => toAdminCredit(row.payment, row.user)),
    pagination: pagination(total, query),
  };
}

export async function adminSubscriptionTransactions(
  db: Database,
  query: AdminSubscriptionTransactionsQuery,
) {
  const { rows, total } = await listPayments(db, "subscription", query);
  return {
    data: rows.map((row) => toAdminSubscriptionPayment(row.payment, row.user)),
    pagination: pagination(total, query),
  };
}

/**
 * A user's own payments of one kind, newest first unless sorted otherwise; `search` matches
 * part of the row id, the transaction id, the status or the item's name.
 */
export async function userPayments(
  db: Database,
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
      db,
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
}
