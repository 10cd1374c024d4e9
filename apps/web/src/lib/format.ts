/**
 * Money as the spec shows it: amounts come from the API in major units and are formatted in the
 * en-US style with 2 decimals in their currency (admin-side spec, section 9). An unknown or
 * missing currency falls back to USD; a missing amount shows as 0.
 */
const formats = new Map<string, Intl.NumberFormat>();

function formatFor(currency: string): Intl.NumberFormat {
  const code = currency.toUpperCase();
  let format = formats.get(code);
  if (!format) {
    try {
      format = new Intl.NumberFormat("en-US", {
        style: "currency",
        currency: code,
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
    } catch {
      format = formatFor("USD");
    }
    formats.set(code, format);
  }
  return format;
}

/** "$9.99", "€12.00", "₹499.00", "$1,234.50", "$0.10", "$0.00": always two decimals. */
export function formatMoney(amount: number | null | undefined, currency?: string | null): string {
  const value = typeof amount === "number" && Number.isFinite(amount) ? amount : 0;
  return formatFor(currency || "usd").format(value);
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
