/**
 * What a withdrawal gives back (docs/decisions/0065), as pure arithmetic on integer minor units
 * and whole credits. Every rounding goes the fan's way: money up to the next cent, credits taken
 * back never more than those left unused.
 */

export interface WithdrawalTerms {
  /** Money given back, minor units. */
  refundMinor: number;
  /** Credits taken back from the balance. */
  creditsTakenBack: number;
  /** Credits of the purchase the fan used (kept, and paid for). */
  creditsUsed: number;
}

/** a * b / c rounded UP, exactly (integers only: no float ever decides a cent). */
const mulDivUp = (a: number, b: number, c: number): number => {
  const product = BigInt(a) * BigInt(b);
  const divisor = BigInt(c);
  return Number((product + divisor - 1n) / divisor);
};

/**
 * A credit package: the unused credits go back, the money in proportion. The balance counts as
 * this purchase's credits first (credits are alike; the reading that favours the fan), so the
 * unused ones are min(credits of the purchase not yet taken back, balance).
 */
export function packageWithdrawal(input: {
  /** Money of the payment not yet given back nor claimed, minor units. */
  refundableMinor: number;
  /** Credits the purchase bought less those earlier refunds took back (or found missing). */
  creditsLeft: number;
  balance: number;
}): WithdrawalTerms {
  const creditsLeft = Math.max(0, input.creditsLeft);
  const unused = Math.max(0, Math.min(creditsLeft, input.balance));
  const money = Math.max(0, input.refundableMinor);
  const refundMinor =
    creditsLeft === 0 ? 0 : unused === creditsLeft ? money : mulDivUp(money, unused, creditsLeft);
  return { refundMinor, creditsTakenBack: unused, creditsUsed: creditsLeft - unused };
}

/**
 * A plan's period: the unused time goes back in proportion (to the millisecond, rounded up to
 * the cent), the plan ends now, and the credits it granted that are still held are taken back.
 */
export function planWithdrawal(input: {
  refundableMinor: number;
  periodStart: Date;
  periodEnd: Date;
  now: Date;
  creditsLeft: number;
  balance: number;
}): WithdrawalTerms {
  const total = input.periodEnd.getTime() - input.periodStart.getTime();
  const left = Math.min(total, Math.max(0, input.periodEnd.getTime() - input.now.getTime()));
  const money = Math.max(0, input.refundableMinor);
  const refundMinor = total <= 0 ? 0 : left === total ? money : mulDivUp(money, left, total);
  const creditsLeft = Math.max(0, input.creditsLeft);
  const taken = Math.max(0, Math.min(creditsLeft, input.balance));
  return { refundMinor, creditsTakenBack: taken, creditsUsed: creditsLeft - taken };
}
