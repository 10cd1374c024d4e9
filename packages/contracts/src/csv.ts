import type {
  AdminCreditTransaction,
  AdminSubscriptionTransaction,
  SubscriptionHistoryEvent,
} from "./billing/index";

/**
 * The one CSV cell rule of the project (decisions 0047, 0081): the web app's encoder (apps/web
 * lib/csv.ts), the admin screens' page export and every server CSV (the billing "Export all",
 * the chat logs, the crisis referrals) all write cells through csvCell, and the transaction screens'
 * columns through the row functions below (admin-side section 7). Every cell is quoted and
 * missing values show as N/A. A text cell starting with = + - @ (or a Unicode look-alike: fullwidth
 * ＝ ＋ － ＠, the minus sign), a tab or a carriage return is neutralised with a leading apostrophe, so a spreadsheet never runs it ("-1+1", "=HYPERLINK");
 * a cell that is only a number ("-5.00", a refund's amount) is a number, not a formula, and is
 * written as it is.
 */
export type CsvValue = string | number | boolean | null | undefined;

// U+2212 is the minus sign: NFKC keeps it, and spreadsheets read it as a minus.
const FORMULA_START = /^[=+\-@\t\r\u2212]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Whether a cell would start a formula: its first character NFKC-normalised, so the look-alikes
 * a spreadsheet also reads as = + - @ (fullwidth ＝ ＋ － ＠, the small ﹦ ﹢ ﹣ ﹫) count too.
 */
function startsFormula(text: string): boolean {
  const first = text.codePointAt(0);
  return first !== undefined && FORMULA_START.test(String.fromCodePoint(first).normalize("NFKC"));
}

/**
 * The formula rule alone (csvCell applies it to every text cell).
 */
export function neutraliseFormula(text: string): string {
  return startsFormula(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

export function csvCell(value: CsvValue): string {
  if (typeof value === "number") return `"${Number.isFinite(value) ? value : "N/A"}"`;
  const text = value === null || value === undefined || value === "" ? "N/A" : String(value);
  return `"${neutraliseFormula(text).replaceAll('"', '""')}"`;
}

/** One CSV line (no line end). */
export const csvLine = (values: readonly CsvValue[]): string => values.map(csvCell).join(",");

/** One CSV line ended by CRLF (RFC 4180), for the server's files written line by line. */
export const csvRow = (values: readonly CsvValue[]): string => `${csvLine(values)}\r\n`;

/**
 * A payment's Status cell: its status, and for one given back in part what went back, so a
 * spreadsheet summing Amount can see it (the spec's columns are fixed; issue 24).
 */
const paymentStatusCell = (r: { status: string; amount: number; refundedAmount: number }) =>
  r.refundedAmount > 0 && r.refundedAmount < r.amount
    ? `${r.status} (refunded ${r.refundedAmount.toFixed(2)} of ${r.amount.toFixed(2)})`
    : r.status;

export const creditTransactionCsvRow = (r: AdminCreditTransaction): CsvValue[] => [
  r.transactionDate,
  r.userId?.email,
  r.userId?.name,
  r.metadata.packageName,
  r.credits,
  r.amount.toFixed(2),
  r.currency.toUpperCase(),
  paymentStatusCell(r),
  r.stripePaymentId,
];

export const subscriptionTransactionCsvRow = (r: AdminSubscriptionTransaction): CsvValue[] => [
  r.transactionDate,
  r.userId?.email,
  r.userId?.name,
  r.planId?.name ?? r.planName ?? null,
  r.amount.toFixed(2),
  r.currency.toUpperCase(),
  paymentStatusCell(r),
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
