import {
  CREDIT_TRANSACTIONS_CSV_COLUMNS,
  creditTransactionCsvRow,
  routes,
  SUBSCRIPTION_HISTORY_CSV_COLUMNS,
  SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS,
  subscriptionHistoryCsvRow,
  subscriptionTransactionCsvRow,
} from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { sendCsvDownload } from "../../../lib/csv-download.ts";
import { registerRoute } from "../../../plugins/routes.ts";
import type { TransactionsRepository } from "./transactions-repository.ts";

/**
 * "Export all" of the three admin transaction screens: every row matching the list's filters
 * and sort (page and limit are ignored), streamed as CSV with the page export's columns and
 * cells (contracts/csv.ts), read 500 rows at a time (lib/csv-download.ts). Guarded for admins by their definitions (routes.adminBilling, `kind: "file"`).
 */
export const adminExportRoutes: FastifyPluginAsync<{
  transactions: TransactionsRepository;
}> = async (app, { transactions }) => {
  registerRoute(app, routes.adminBilling.creditTransactionsExport, (request, reply) =>
    sendCsvDownload(request, reply, {
      name: "credit-transactions",
      header: CREDIT_TRANSACTIONS_CSV_COLUMNS,
      toRow: creditTransactionCsvRow,
      batches: transactions.exportCredits(request.query),
    }),
  );

  registerRoute(app, routes.adminBilling.subscriptionTransactionsExport, (request, reply) =>
    sendCsvDownload(request, reply, {
      name: "subscription-transactions",
      header: SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS,
      toRow: subscriptionTransactionCsvRow,
      batches: transactions.exportSubscriptionPayments(request.query),
    }),
  );

  registerRoute(app, routes.adminBilling.subscriptionHistoryExport, (request, reply) =>
    sendCsvDownload(request, reply, {
      name: "subscription-history",
      header: SUBSCRIPTION_HISTORY_CSV_COLUMNS,
      toRow: subscriptionHistoryCsvRow,
      batches: transactions.exportHistory(request.query),
    }),
  );
};
