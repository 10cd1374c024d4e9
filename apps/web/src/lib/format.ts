/**
 * How the app shows dates, durations, money and counts: one home for each rule, on Intl, in the
 * en-US style the specs show (decision 0047). Every screen formats through these.
 */

const dateFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
});
const dateTimeFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
});
const timestampFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
});
const timeFormat = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit" });
const countFormat = new Intl.NumberFormat("en-US");
const sizeFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

type DateInput = string | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (!value) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Jan 5, 2025", or `empty` when there is no valid date. */
export function formatDate(value: DateInput, empty = "—"): string {
  const date = toDate(value);
  return date ? dateFormat.format(date) : empty;
}

/** "Jan 5, 2025, 3:07 PM", or `empty` when there is no valid date. */
export function formatDateTime(value: DateInput, empty = "—"): string {
  const date = toDate(value);
  return date ? dateTimeFormat.format(date) : empty;
}

/** "Jan 5, 2025, 3:07:09 PM" (to the second: logs), or `empty` when there is no valid date. */
export function formatTimestamp(value: DateInput, empty = "—"): string {
  const date = toDate(value);
  return date ? timestampFormat.format(date) : empty;
}

/** "3:07 PM", or `empty` when there is no valid date. */
export function formatTime(value: DateInput, empty = "—"): string {
  const date = toDate(value);
  return date ? timeFormat.format(date) : empty;
}

/**
 * Durations as the spec shows them: under 60 s in seconds ("45s"), else "2h 5m" or "7m";
 * `withSeconds` keeps the seconds beyond the minute ("1m 23s"), where the exact time matters.
 */
export function formatDuration(
  seconds: number | null | undefined,
  options: { withSeconds?: boolean } = {},
): string {
  const total =
    typeof seconds === "number" && Number.isFinite(seconds) ? Math.max(0, Math.floor(seconds)) : 0;
  if (total < 60) return `${total}s`;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const tail = options.withSeconds && rest > 0 ? ` ${rest}s` : "";
  return hours > 0 ? `${hours}h ${minutes}m${tail}` : `${minutes}m${tail}`;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  const code = currency.toUpperCase();
  let format = moneyFormats.get(code);
  if (!format) {
    try {
      format = new Intl.NumberFormat("en-US", {
        style: "currency",
        currency: code,
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
    } catch {
      format = moneyFormat("USD");
    }
    moneyFormats.set(code, format);
  }
  return format;
}

/**
 * Money in MAJOR units, always with two decimals and thousands separators, in its currency:
 * "$9.99", "$12,345.00", "€12.00". An unknown currency falls back to USD, a missing amount to 0.
 * The currency has no default: every caller names the one of its figure, so no screen shows a
 * euro price in dollars (issue 24).
 */
export function formatMoney(
  amount: number | null | undefined,
  currency: string | null | undefined,
) {
  const value = typeof amount === "number" && Number.isFinite(amount) ? amount : 0;
  return moneyFormat(currency || "USD").format(value);
}

/** Whole numbers with thousands separators: "140,037". */
export function formatCount(value: number): string {
  return countFormat.format(value);
}

/** A file's size: "512 B", "12.3 KB", "4.5 MB" (a size that rounds to 1,024 KB is "1 MB"). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kilobytes = Math.round((bytes / 1024) * 10) / 10;
  if (kilobytes < 1024) return `${sizeFormat.format(kilobytes)} KB`;
  return `${sizeFormat.format(bytes / 1024 / 1024)} MB`;
}

/** A revenue figure: the USD headline, and each other currency beside it (never added up). */
export interface MoneyByCurrency {
  value: number;
  byCurrency?: { currency: string; value: number }[];
}

/** The currencies other than USD of a figure, formatted: ["€99.99", "₹500.00"]. */
export function otherCurrencies(metric: MoneyByCurrency): string[] {
  return (metric.byCurrency ?? [])
    .filter((entry) => entry.currency !== "usd")
    .map((entry) => formatMoney(entry.value, entry.currency));
}
