import { Readable } from "node:stream";
import {
  CREDIT_TRANSACTIONS_CSV_COLUMNS,
  type CsvValue,
  creditTransactionCsvRow,
  csvRow,
  routes,
  SUBSCRIPTION_HISTORY_CSV_COLUMNS,
  SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS,
  subscriptionHistoryCsvRow,
  subscriptionTransactionCsvRow,
} from "@twinline/contracts";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { registerRoute } from "../../../plugins/routes.ts";
import type { TransactionsRepository } from "./transactions-repository.ts";

/** The CSV as it is read: a BOM (spreadsheets then read UTF-8), the header, then each batch. */
async function* csvLines<T>(
  columns: readonly string[],
  toRow: (row: T) => CsvValue[],
  batches: AsyncIterable<T[]>,
): AsyncGenerator<string> {
  yield `\uFEFF${csvRow(columns)}`;
  for await (const rows of batches) {
    yield rows.map((row) => csvRow(toRow(row))).join("");
  }
}

function sendCsv(reply: FastifyReply, fileName: string, lines: AsyncIterable<string>): void {
  const day = new Date().toISOString().slice(0, 10);
  void reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${fileName}-${day}.csv"`)
    .header("cache-control", "no-store")
    .send(Readable.from(lines));
}

/**
 * "Export all" of the three admin transaction screens: every row matching the list's filters
 * and sort (page and limit are ignored), streamed as CSV with the page export's columns and
 * cells (contracts/csv.ts), read 500 rows at a time, so memory stays flat however many rows
 * match. Guarded for admins by their definitions (routes.adminBilling, `kind: "file"`).
 */
export const adminExportRoutes: FastifyPluginAsync<{
  transactions: TransactionsRepository;
}> = async (app, { transactions }) => {
  registerRoute(app, routes.adminBilling.creditTransactionsExport, (request, reply) => {
    sendCsv(
      reply,
      "credit-transactions",
      csvLines(
        CREDIT_TRANSACTIONS_CSV_COLUMNS,
        creditTransactionCsvRow,
        transactions.exportCredits(request.query),
      ),
    );
  });

  registerRoute(app, routes.adminBilling.subscriptionTransactionsExport, (request, reply) => {
    sendCsv(
      reply,
      "subscription-transactions",
      csvLines(
        SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS,
        subscriptionTransactionCsvRow,
        transactions.exportSubscriptionPayments(request.query),
      ),
    );
  });

  registerRoute(app, routes.adminBilling.subscriptionHistoryExport, (request, reply) => {
    sendCsv(
      reply,
      "subscription-history",
      csvLines(
        SUBSCRIPTION_HISTORY_CSV_COLUMNS,
        subscriptionHistoryCsvRow,
        transactions.exportHistory(request.query),
      ),
    );
  });
};
