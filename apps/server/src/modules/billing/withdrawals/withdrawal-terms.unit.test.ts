import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packageWithdrawal, planWithdrawal } from "./withdrawal-terms.ts";

describe("withdrawal terms", () => {
  it("rounds a half cent up: 1 of 2 credits of 999 cents gives back 500", () => {
    expect(packageWithdrawal({ refundableMinor: 999, creditsLeft: 2, balance: 1 })).toEqual({
      refundMinor: 500,
      creditsTakenBack: 1,
      creditsUsed: 1,
    });
  });

  it("rounds any fraction of a cent up: 1 of 3 credits of 100 cents gives back 34", () => {
    expect(
      packageWithdrawal({ refundableMinor: 100, creditsLeft: 3, balance: 1 }).refundMinor,
    ).toBe(34);
  });

  it("gives back the whole payment when nothing was used, whatever the division", () => {
    expect(packageWithdrawal({ refundableMinor: 1000, creditsLeft: 3, balance: 50 })).toEqual({
      refundMinor: 1000,
      creditsTakenBack: 3,
      creditsUsed: 0,
    });
  });

  it("counts the balance as the purchase's credits first", () => {
    expect(packageWithdrawal({ refundableMinor: 999, creditsLeft: 100, balance: 70 })).toEqual({
      refundMinor: 700,
      creditsTakenBack: 70,
      creditsUsed: 30,
    });
  });

  it("gives nothing for a purchase whose credits are all used", () => {
    expect(
      packageWithdrawal({ refundableMinor: 999, creditsLeft: 100, balance: 0 }).refundMinor,
    ).toBe(0);
  });

  it("never gives back less than the exact share, nor a cent more, nor more than is left", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        (money, creditsLeft, balance) => {
          const terms = packageWithdrawal({ refundableMinor: money, creditsLeft, balance });
          const unused = Math.min(creditsLeft, balance);
          expect(terms.creditsTakenBack).toBe(unused);
          expect(terms.creditsTakenBack + terms.creditsUsed).toBe(creditsLeft);
          // Exact in integers: refund * creditsLeft >= money * unused (never the fan's loss)...
          expect(BigInt(terms.refundMinor) * BigInt(creditsLeft)).toBeGreaterThanOrEqual(
            BigInt(money) * BigInt(unused),
          );
          // ...and less than one cent above it, and never above what is left to refund.
          expect(BigInt(terms.refundMinor - 1) * BigInt(creditsLeft)).toBeLessThan(
            BigInt(money) * BigInt(unused),
          );
          expect(terms.refundMinor).toBeLessThanOrEqual(money);
        },
      ),
    );
  });

  it("gives back a plan's unused time rounded up, the whole of it before it began", () => {
    const periodStart = new Date("2026-12-01T00:00:00Z");
    const periodEnd = new Date("2026-12-31T00:00:00Z");
    const base = { refundableMinor: 999, periodStart, periodEnd, creditsLeft: 50, balance: 80 };
    expect(planWithdrawal({ ...base, now: periodStart })).toMatchObject({
      refundMinor: 999,
      creditsTakenBack: 50,
    });
    // Half the period: 499.5 -> 500.
    expect(planWithdrawal({ ...base, now: new Date("2026-12-16T00:00:00Z") }).refundMinor).toBe(
      500,
    );
    expect(planWithdrawal({ ...base, now: periodEnd }).refundMinor).toBe(0);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 30 * 24 * 3600 * 1000 }),
        (money, elapsed) => {
          const now = new Date(periodStart.getTime() + elapsed);
          const terms = planWithdrawal({ ...base, refundableMinor: money, now });
          const total = BigInt(periodEnd.getTime() - periodStart.getTime());
          const left = BigInt(Math.max(0, periodEnd.getTime() - now.getTime()));
          expect(BigInt(terms.refundMinor) * total).toBeGreaterThanOrEqual(BigInt(money) * left);
          expect(terms.refundMinor).toBeLessThanOrEqual(money);
        },
      ),
    );
  });
});
