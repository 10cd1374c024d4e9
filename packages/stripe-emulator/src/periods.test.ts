import { describe, expect, it } from "vitest";
import { nextPeriodEnd, percentOff, proration } from "./periods.ts";

const at = (iso: string) => Date.parse(iso) / 1000;

describe("periods from a billing anchor", () => {
  it("comes back to the anchor's day after a shorter month", () => {
    const anchor = at("2027-01-31T00:00:00Z");
    expect(nextPeriodEnd(anchor, "month", 1, anchor)).toBe(at("2027-02-28T00:00:00Z"));
    expect(nextPeriodEnd(anchor, "month", 1, at("2027-02-28T00:00:00Z"))).toBe(
      at("2027-03-31T00:00:00Z"),
    );
  });

  it("keeps Feb 29 for the leap years of a yearly plan", () => {
    const anchor = at("2024-02-29T00:00:00Z");
    expect(nextPeriodEnd(anchor, "year", 1, anchor)).toBe(at("2025-02-28T00:00:00Z"));
    expect(nextPeriodEnd(anchor, "year", 1, at("2027-03-01T00:00:00Z"))).toBe(
      at("2028-02-29T00:00:00Z"),
    );
  });
});

describe("the arithmetic of money", () => {
  it("rounds each part of a proration on its own, a half up", () => {
    const period = { periodStart: 0, periodEnd: 100, now: 50 };
    expect(proration({ ...period, oldAmount: 500, newAmount: 999 })).toBe(250);
    expect(proration({ ...period, oldAmount: 999, newAmount: 500 })).toBe(-250);
    expect(proration({ ...period, oldAmount: 500, newAmount: 999, now: 100 })).toBe(0);
  });

  it("rounds a half cent off as the rounding says", () => {
    // 12.5% of 1,004 = 125.5
    expect(percentOff(1004, 1250, "up")).toBe(126);
    expect(percentOff(1004, 1250, "even")).toBe(126);
    // 12.5% of 1,012 = 126.5
    expect(percentOff(1012, 1250, "even")).toBe(126);
  });
});
