import type {
  AdminCreditTransactionsQuery,
  AdminSubscriptionHistoryQuery,
  AdminSubscriptionTransactionsQuery,
} from "@twinline/contracts";
import type { Database } from "../../../db/client.ts";
import { toAdminCredit, toAdminSubscriptionPayment } from "./mappers.ts";
import { historyPage, paymentRows, toEvent } from "./transaction-queries.ts";

/** Rows read at a time by an export. */
export const EXPORT_BATCH = 500;

/** Every row of a filtered, sorted list, a batch at a time (the "Export all" CSVs). */
export async function* batches<T>(page: (page: number) => Promise<T[]>): AsyncGenerator<T[]> {
  for (let n = 1; ; n++) {
    const rows = await page(n);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_BATCH) return;
  }
}

/** Every credit purchase matching the list's filters, in its order (page and limit unused). */
export const exportCredits = (db: Database, query: AdminCreditTransactionsQuery) =>
  batches(async (page) =>
    (await paymentRows(db, "credits", query, { page, limit: EXPORT_BATCH })).map((row) =>
      toAdminCredit(row.payment, row.user),
    ),
  );

/** Every subscription payment matching the list's filters, in its order. */
export const exportSubscriptionPayments = (
  db: Database,
  query: AdminSubscriptionTransactionsQuery,
) =>
  batches(async (page) =>
    (await paymentRows(db, "subscription", query, { page, limit: EXPORT_BATCH })).map((row) =>
      toAdminSubscriptionPayment(row.payment, row.user),
    ),
  );

/** Every subscription event matching the list's filters, in its order. */
export const exportHistory = (db: Database, query: AdminSubscriptionHistoryQuery) =>
  batches(async (page) => (await historyPage(db, query, page, EXPORT_BATCH)).map(toEvent));
