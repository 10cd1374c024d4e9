/**
 * The end of the `periods`-th period from `anchor` (seconds, UTC). Months and years keep the
 * anchor's day, clamped to a shorter month's last day (Jan 31, Feb 28, Mar 31), as Stripe's
 * billing_cycle_anchor does.
 */
export function periodFromAnchor(
  anchor: number,
  interval: string,
  intervalCount: number,
  periods: number,
): number {
  const date = new Date(anchor * 1000);
  const count = intervalCount * periods;
  if (interval === "day") date.setUTCDate(date.getUTCDate() + count);
  else if (interval === "week") date.setUTCDate(date.getUTCDate() + 7 * count);
  else {
    const months = interval === "month" ? count : 12 * count;
    const day = date.getUTCDate();
    date.setUTCDate(1);
    date.setUTCMonth(date.getUTCMonth() + months);
    const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    date.setUTCDate(Math.min(day, last));
  }
  return Math.floor(date.getTime() / 1000);
}

/** The first period boundary from `anchor` after `after`. */
export function nextPeriodEnd(
  anchor: number,
  interval: string,
  intervalCount: number,
  after: number,
): number {
  for (let periods = 1; ; periods += 1) {
    const end = periodFromAnchor(anchor, interval, intervalCount, periods);
    if (end > after) return end;
  }
}

/**
 * Stripe's proration of an immediate price change: the new price for the unused part of the
 * period less the unused part of the old one, each rounded to the minor unit. Signed: a
 * downgrade's is negative (credited to the customer's balance).
 */
export function proration(input: {
  oldAmount: number;
  newAmount: number;
  periodStart: number;
  periodEnd: number;
  now: number;
}): number {
  const total = input.periodEnd - input.periodStart;
  if (total <= 0) return 0;
  const fraction = Math.min(Math.max((input.periodEnd - input.now) / total, 0), 1);
  return Math.round(input.newAmount * fraction) - Math.round(input.oldAmount * fraction);
}

/** `basisPoints` of `amount`, in minor units, a half rounded up or to even. */
export function percentOff(amount: number, basisPoints: number, half: "up" | "even"): number {
  const tenThousandths = amount * basisPoints;
  const whole = Math.floor(tenThousandths / 10_000);
  const rest = tenThousandths - whole * 10_000;
  if (rest > 5_000) return whole + 1;
  if (rest < 5_000) return whole;
  return half === "up" || whole % 2 === 1 ? whole + 1 : whole;
}
