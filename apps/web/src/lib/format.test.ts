import { describe, expect, it } from "vitest";
import { formatMoney, otherCurrencies } from "./format";

describe("formatMoney", () => {
  it("always shows two decimals, with thousands separators", () => {
    expect(formatMoney(1234.5, "usd")).toBe("$1,234.50");
    expect(formatMoney(0.1, "usd")).toBe("$0.10");
    expect(formatMoney(0, "usd")).toBe("$0.00");
    expect(formatMoney(12, "eur")).toBe("€12.00");
    expect(formatMoney(499, "INR")).toBe("₹499.00");
  });

  it("reads a missing amount as 0 and an unknown currency as USD", () => {
    expect(formatMoney(undefined, "usd")).toBe("$0.00");
    expect(formatMoney(Number.NaN, null)).toBe("$0.00");
    expect(formatMoney(5, "zz")).toBe("$5.00");
  });
});

describe("otherCurrencies", () => {
  it("lists every currency but USD, each in its own money, never added", () => {
    expect(
      otherCurrencies({
        value: 10,
        byCurrency: [
          { currency: "usd", value: 10 },
          { currency: "eur", value: 99.99 },
          { currency: "inr", value: 500 },
        ],
      }),
    ).toEqual(["€99.99", "₹500.00"]);
    expect(otherCurrencies({ value: 10 })).toEqual([]);
  });
});
