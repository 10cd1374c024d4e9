/** Money rules that are not formatting (formatting: lib/format.ts). */

/** price × (1 − discount / 100), rounded to cents (user-side spec, section 2; admin-side 5). */
export function discountedPrice(price: number, discount: number | null | undefined): number {
  const percent = Math.min(100, Math.max(0, discount ?? 0));
  return Math.round(price * (1 - percent / 100) * 100) / 100;
}
