import { describe, expect, it } from "vitest";
import {
  formatBytes,
  formatCount,
  formatDate,
  formatDateTime,
  formatDuration,
  formatMoney,
  formatTime,
  formatTimestamp,
  otherCurrencies,
} from "./format";

describe("formatDuration: under 60 s in seconds, else Xh Ym or Ym", () => {
  it.each([
    [0, "0s"],
    [42, "42s"],
    [59.9, "59s"],
    [60, "1m"],
    [98, "1m"],
    [600, "10m"],
    [2700, "45m"],
    [3599, "59m"],
    [7_500, "2h 5m"],
    [3600, "1h 0m"],
    [3 * 3600 + 5 * 60 + 9, "3h 5m"],
    [-5, "0s"],
    [Number.NaN, "0s"],
  ])("%s s reads %s", (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });
});

describe("formatDuration with seconds: the exact time (the overview's talk time)", () => {
  it.each([
    [42, "42s"],
    [60, "1m"],
    [83, "1m 23s"],
    [3599, "59m 59s"],
    [3 * 3600 + 5 * 60 + 9, "3h 5m 9s"],
  ])("%s s reads %s", (seconds, expected) => {
    expect(formatDuration(seconds, { withSeconds: true })).toBe(expected);
  });
});

describe("formatMoney: major units, two decimals, thousands separators", () => {
  it.each([
    [9.99, "USD", "$9.99"],
    [12345, "USD", "$12,345.00"],
    [0.5, "usd", "$0.50"],
    [12, "EUR", "€12.00"],
    [-5, "USD", "-$5.00"],
    [1.005, "USD", "$1.01"],
    [1234.5, "usd", "$1,234.50"],
    [0.1, "usd", "$0.10"],
    [0, "usd", "$0.00"],
    [499, "INR", "₹499.00"],
  ])("%s %s reads %s", (amount, currency, expected) => {
    expect(formatMoney(amount, currency)).toBe(expected);
  });

  it("an unknown or missing currency falls back to USD, a missing amount to 0", () => {
    expect(formatMoney(3, undefined)).toBe("$3.00");
    expect(formatMoney(3, "not-a-currency")).toBe("$3.00");
    expect(formatMoney(null, "usd")).toBe("$0.00");
    expect(formatMoney(Number.POSITIVE_INFINITY, "usd")).toBe("$0.00");
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

describe("dates", () => {
  // Local time, so the test reads the same in every time zone.
  const when = new Date(2025, 0, 5, 15, 7);

  it("formats a day, a day with its time and a time", () => {
    expect(formatDate(when)).toBe("Jan 5, 2025");
    expect(formatDate(when.toISOString())).toBe("Jan 5, 2025");
    expect(formatDateTime(when)).toBe("Jan 5, 2025, 3:07 PM");
    expect(formatTime(when)).toBe("3:07 PM");
    expect(formatTimestamp(new Date(2025, 0, 5, 15, 7, 9))).toBe("Jan 5, 2025, 3:07:09 PM");
  });

  it("shows the given empty text for a missing or invalid date", () => {
    expect(formatDate(null)).toBe("—");
    expect(formatDate("not a date", "Never")).toBe("Never");
    expect(formatDateTime(undefined, "N/A")).toBe("N/A");
    expect(formatTime("", "")).toBe("");
  });
});

describe("formatCount", () => {
  it("groups thousands", () => {
    expect(formatCount(140037)).toBe("140,037");
    expect(formatCount(7)).toBe("7");
  });
});

describe("formatBytes: bytes under 1 KB, then KB and MB to one decimal", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1 KB"],
    [1536, "1.5 KB"],
    [1024 * 1024 - 1, "1 MB"],
    [1024 * 1024 - 60, "1,023.9 KB"],
    [1024 * 1024, "1 MB"],
    [4.5 * 1024 * 1024, "4.5 MB"],
  ])("%i bytes are %s", (bytes, shown) => {
    expect(formatBytes(bytes)).toBe(shown);
  });
});
