import type { RevenueFigures } from "@twinline/contracts";
import type { Database } from "../../../db/client.ts";
import { bindFirst } from "../../../lib/bind-first.ts";
import { type RevenueKind, revenueFigures } from "../../dashboards/revenue.ts";
import { adminSubscriptionHistory, historyEvent, userHistory } from "./history-lists.ts";
import {
  adminCreditTransactions,
  adminSubscriptionTransactions,
  userPayments,
} from "./payment-lists.ts";
import { exportCredits, exportHistory, exportSubscriptionPayments } from "./transaction-exports.ts";

export { EXPORT_BATCH } from "./transaction-exports.ts";

/**
 * The Revenue Analytics cards: the dashboard's own figures, per currency, for the day and month
 * of `now` (the billing clock's: payments are dated on it).
 */
const revenue = (db: Database, kind: RevenueKind, now: Date): Promise<RevenueFigures> =>
  revenueFigures(db, kind, now);

/**
 * Payments and subscription history, for the user's own screens and the admin's lists. Each
 * admin filter and sort is served by an index of schema/billing.ts (kind first); the id breaks
 * ties so pages are stable.
 */
export function createTransactionsRepository(db: Database) {
  return bindFirst(db, {
    adminCreditTransactions,
    adminSubscriptionTransactions,
    adminSubscriptionHistory,
    exportCredits,
    exportSubscriptionPayments,
    exportHistory,
    historyEvent,
    userPayments,
    userHistory,
    revenue,
  });
}

export type TransactionsRepository = ReturnType<typeof createTransactionsRepository>;
