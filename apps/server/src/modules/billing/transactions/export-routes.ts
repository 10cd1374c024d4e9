import { Readable } from "node:stream";
import {
  adminCreditTransactionsQuerySchema,
  adminSubscriptionHistoryQuerySchema,
  adminSubscriptionTransactionsQuerySchema,
  CREDIT_TRANSACTIONS_CSV_COLUMNS,
  type CsvValue,
  creditTransactionCsvRow,
  csvRow,
  SUBSCRIPTION_HISTORY_CSV_COLUMNS,
  SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS,
  subscriptionHistoryCsvRow,
  subscriptionTransactionCsvRow,
} from "@twinline/contracts";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { bearerSecurity, errorResponses } from "../../../plugins/openapi.ts";
import type { TransactionsRepository } from "./transactions-repository.ts";

const tags = ["admin billing"];

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
 * match. Registered in the billing module's admin-guarded scope.
 */
export const adminExportRoutes: FastifyPluginAsyncZod<{
  transactions: TransactionsRepository;
}> = async (app, { transactions }) => {
  const schema = (summary: string) => ({
    tags,
    security: bearerSecurity,
    summary,
    produces: ["text/csv"],
    response: errorResponses(400, 401, 403),
  });

  app.get(
    "/api/admin/credit-transactions/export",
    {
      schema: {
        ...schema("Every credit purchase matching the filters, as CSV (streamed)"),
        querystring: adminCreditTransactionsQuerySchema,
      },
    },
    (request, reply) => {
      sendCsv(
        reply,
        "credit-transactions",
        csvLines(
          CREDIT_TRANSACTIONS_CSV_COLUMNS,
          creditTransactionCsvRow,
          transactions.exportCredits(request.query),
        ),
      );
    },
  );

  app.get(
    "/api/admin/subscription-transactions/export",
    {
      schema: {
        ...schema("Every subscription payment matching the filters, as CSV (streamed)"),
        querystring: adminSubscriptionTransactionsQuerySchema,
      },
    },
    (request, reply) => {
      sendCsv(
        reply,
        "subscription-transactions",
        csvLines(
          SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS,
          subscriptionTransactionCsvRow,
          transactions.exportSubscriptionPayments(request.query),
        ),
      );
    },
  );

  app.get(
    "/api/admin/subscription-history/export",
    {
      schema: {
        ...schema("Every subscription event matching the filters, as CSV (streamed)"),
        querystring: adminSubscriptionHistoryQuerySchema,
      },
    },
    (request, reply) => {
      sendCsv(
        reply,
        "subscription-history",
        csvLines(
          SUBSCRIPTION_HISTORY_CSV_COLUMNS,
          subscriptionHistoryCsvRow,
          transactions.exportHistory(request.query),
        ),
      );
    },
  );
};
