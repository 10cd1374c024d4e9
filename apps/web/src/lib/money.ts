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

/** "$9.99", "€12.00", "₹499.00". */
export function formatMoney(amount: number | null | undefined, currency?: string | null): string {
  const value = typeof amount === "number" && Number.isFinite(amount) ? amount : 0;
  return formatFor(currency || "usd").format(value);
}

/** price × (1 − discount / 100), rounded to cents (user-side spec, section 2; admin-side 5). */
export function discountedPrice(price: number, discount: number | null | undefined): number {
  const percent = Math.min(100, Math.max(0, discount ?? 0));
  return Math.round(price * (1 - percent / 100) * 100) / 100;
}
