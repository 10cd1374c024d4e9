import { describe, expect, it } from "vitest";
import { queryDate, queryDateOrTime } from "./query-dates";

describe("query dates", () => {
  it("queryDate takes calendar dates of years 1 to 9998 only", () => {
    const schema = queryDate("date must be a date");
    expect(schema.safeParse("2026-11-22").success).toBe(true);
    expect(schema.safeParse("0001-01-01").success).toBe(true);
    for (const bad of ["0000-01-01", "9999-12-31", "10000-01-01", "2026-02-30", "22-11-2026"]) {
      expect(schema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it("queryDateOrTime takes the same dates, or a date-time with its offset, and names the field", () => {
    const schema = queryDateOrTime("endDate must be a date (yyyy-MM-dd) or an ISO date-time");
    for (const good of ["2026-11-22", "2026-11-22T23:59:59.999Z", "2026-11-22T10:00:00+05:30"]) {
      expect(schema.safeParse(good).success, good).toBe(true);
    }
    for (const bad of [
      "0000-01-01",
      "9999-12-31",
      "2026-02-30",
      "2026-11-22T25:00:00Z",
      "2026-11-22 extra",
      "a\u0000b",
      "\ud800",
      "2026-11-22".repeat(5),
    ]) {
      const parsed = schema.safeParse(bad);
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]?.message, bad).toMatch(/^endDate must be a date/);
    }
  });
});
