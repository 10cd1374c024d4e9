import type { AdminSubscriptionHistoryQuery, SubscriptionHistoryEvent } from "@twinline/contracts";
import { count, desc, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { subscriptionEvents } from "../../../db/schema/index.ts";
import { pageOffset, pagination } from "../../../lib/paging.ts";
import { historyPage, historyRows, historyWhere, toEvent } from "./transaction-queries.ts";

export async function adminSubscriptionHistory(db: Database, query: AdminSubscriptionHistoryQuery) {
  const where = historyWhere(query);
  const [rows, [total]] = await Promise.all([
    historyPage(db, query, query.page, query.limit),
    db.select({ n: count() }).from(subscriptionEvents).where(where),
  ]);
  return {
    data: rows.map(toEvent),
    pagination: pagination(total?.n ?? 0, query),
  };
}

export async function historyEvent(
  db: Database,
  id: string,
): Promise<SubscriptionHistoryEvent | undefined> {
  const [row] = await historyRows(db, eq(subscriptionEvents.id, id));
  return row ? toEvent(row) : undefined;
}

/** A user's subscription events, newest first. */
export async function userHistory(db: Database, userId: string, page: number, limit: number) {
  const where = eq(subscriptionEvents.userId, userId);
  const [rows, [total]] = await Promise.all([
    historyRows(db, where)
      .orderBy(desc(subscriptionEvents.timestamp), desc(subscriptionEvents.id))
      .limit(limit)
      .offset(pageOffset({ page, limit })),
    db.select({ n: count() }).from(subscriptionEvents).where(where),
  ]);
  return { data: rows.map(toEvent), pagination: pagination(total?.n ?? 0, { page, limit }) };
}
