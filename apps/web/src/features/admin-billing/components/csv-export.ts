import type { routes } from "@twinline/contracts";
import toast from "react-hot-toast";
import { callRoute } from "@/lib/api/route-client";
import type { QueryValue } from "@/lib/api-client";
import { type CsvValue, csvFileName, downloadCsv, downloadFile, toCsv } from "@/lib/csv";

/** A server export of many thousand rows takes longer than a list call. */
const EXPORT_ALL_TIMEOUT_MS = 5 * 60_000;

/** The server's "Export all" files (`kind: "file"` routes of the table). */
export type CsvExportRoute =
  | typeof routes.adminBilling.creditTransactionsExport
  | typeof routes.adminBilling.subscriptionTransactionsExport
  | typeof routes.adminBilling.subscriptionHistoryExport;

/** A screen's CSV export (admin-side spec, section 7): its file, its columns and its toasts. */
export interface CsvExport<Row> {
  /** The file name before its date: "credit-transactions". */
  fileName: string;
  /** The contract's column names. */
  columns: readonly string[];
  /** One row's values, in the columns' order. */
  row: (row: Row) => CsvValue[];
  done: string;
  failed: string;
  /** "Export all": the server's CSV of every row matching the filters (same columns). */
  all: CsvExportRoute;
}

/** Downloads the rows on screen as the screen's CSV and toasts how it went. */
export function exportCsv<Row>(csv: CsvExport<Row>, rows: readonly Row[]): void {
  try {
    downloadCsv.save(csvFileName(csv.fileName), toCsv(csv.columns, rows.map(csv.row)));
    toast.success(csv.done);
  } catch {
    toast.error(csv.failed);
  }
}

/**
 * "Export all": asks the server for every row matching the screen's filters and sort (its
 * GET .../export streams them as CSV), saves the file and toasts how it went.
 */
export async function exportAllCsv<Row>(
  csv: CsvExport<Row>,
  params: Record<string, unknown>,
): Promise<void> {
  const query: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === "page" || key === "limit") continue;
    if (["string", "number", "boolean"].includes(typeof value)) query[key] = value as QueryValue;
  }
  try {
    // The route's query schema checks the filters on the server; here they pass as they are.
    const blob = (await callRoute(csv.all, {
      query: query as never,
      responseType: "blob",
      timeoutMs: EXPORT_ALL_TIMEOUT_MS,
    })) as unknown as Blob;
    downloadFile.save(csvFileName(csv.fileName), blob);
    toast.success(csv.done);
  } catch {
    toast.error(csv.failed);
  }
}
