/**
 * THE money rules of the server: amounts are kept as integer minor units (cents) and shown as
 * major units (9.99) only at the edge, so no sum is ever a float's.
 */

/** Major units (9.99) to integer minor units (999). */
export const toMinor = (major: number): number => Math.round(major * 100);

/** Integer minor units to major units, as the API shows money. */
export const toMajor = (minor: number): number => Math.round(minor) / 100;

/** A discount percent (0..100, two decimals) as hundredths of a percent. */
export const toBasisPoints = (percent: number): number => Math.round(percent * 100);

/** What a package charges: price x (1 - discount/100), rounded to the cent. */
export const discountedMinor = (priceMinor: number, discountBasisPoints: number): number =>
  Math.round((priceMinor * (10_000 - discountBasisPoints)) / 10_000);

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * Minor units as the web shows money ("$10.00", "€12.50"), for the few texts the server stores
 * (a payment row's name); the web formats every figure itself (apps/web/src/lib/format.ts).
 */
export function moneyText(minor: number, currency: string): string {
  const code = currency.toUpperCase();
  let format = moneyFormats.get(code);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency: code });
    moneyFormats.set(code, format);
  }
  return format.format(toMajor(minor));
}

/**
 * What a percentage promotion code takes off a price (docs/decisions/0083): price x percent,
 * rounded to the nearest minor unit, a half rounded up (in the fan's favour): 50% of 999 is
 * 499.5, so 500 off and 499 paid. Integer arithmetic only.
 */
export const percentOffMinor = (priceMinor: number, basisPoints: number): number =>
  Math.floor((priceMinor * basisPoints + 5_000) / 10_000);
