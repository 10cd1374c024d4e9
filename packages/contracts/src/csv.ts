import type {
  AdminCreditTransaction,
  AdminSubscriptionTransaction,
  SubscriptionHistoryEvent,
} from "./billing";

/**
 * The admin transaction screens' CSV (admin-side section 7): the page export on the screen and
 * "Export all" on the server (GET /api/admin/{...}/export) write the same columns and cells
 * through these functions. Missing values show as N/A; every cell is quoted; a cell a
 * spreadsheet would read as a formula (=, +, -, @, tab, CR first, not a number) gets a leading
 * apostrophe.
 */
export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  const text = value === null || value === undefined || value === "" ? "N/A" : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** One CSV line (no line end). */
export const csvLine = (values: readonly CsvValue[]): string => values.map(csvCell).join(",");

export const creditTransactionCsvRow = (r: AdminCreditTransaction): CsvValue[] => [
  r.transactionDate,
  r.userId?.email,
  r.userId?.name,
  r.metadata.packageName,
  r.credits,
  r.amount.toFixed(2),
  r.currency.toUpperCase(),
  r.status,
  r.stripePaymentId,
];

export const subscriptionTransactionCsvRow = (r: AdminSubscriptionTransaction): CsvValue[] => [
  r.transactionDate,
  r.userId?.email,
  r.userId?.name,
  r.planId?.name ?? r.planName ?? null,
  r.amount.toFixed(2),
  r.currency.toUpperCase(),
  r.status,
  r.stripePaymentId ?? r.invoiceId ?? null,
];

export const subscriptionHistoryCsvRow = (r: SubscriptionHistoryEvent): CsvValue[] => [
  r.timestamp,
  r.userId?.email,
  r.userId?.name,
  r.planId?.name,
  r.eventType,
  r.status,
  r.startDate,
  r.endDate,
  r.amount.toFixed(2),
  r.currency?.toUpperCase(),
  r.autoRenew ? "Yes" : "No",
  r.stripeSubscriptionId,
];
