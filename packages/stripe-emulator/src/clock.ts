/**
 * Stripe's test clock: the wall clock (injectable, milliseconds like Date.now) moved forward by
 * a renewal to the new period's start, so what is made after it (invoices, events) is dated in
 * that period as at Stripe. Seconds, as Stripe's timestamps are.
 */
export interface EmulatorClock {
  now(): number;
  /** Moves the clock to `moment` unless it is past it already; never back. */
  advanceTo(moment: number): void;
}

export function createTestClock(wallClock: () => number = Date.now): EmulatorClock {
  let shift = 0;
  const wall = () => Math.floor(wallClock() / 1000);
  return {
    now: () => wall() + shift,
    advanceTo(moment) {
      shift = Math.max(shift, moment - wall());
    },
  };
}
