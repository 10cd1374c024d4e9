import { describe, expect, it } from "vitest";
import { ageOn, dateOfBirthSchema, parseIsoDate } from "./age";

describe("ageOn: whole years, UTC calendar dates", () => {
  it("counts a birthday today, not tomorrow", () => {
    expect(ageOn("2008-06-15", "2026-06-15")).toBe(18);
    expect(ageOn("2008-06-16", "2026-06-15")).toBe(17);
    expect(ageOn("2008-12-31", "2026-01-01")).toBe(17);
  });

  it("turns someone born on 29 February a year older on 1 March in a common year", () => {
    expect(ageOn("2008-02-29", "2026-02-28")).toBe(17);
    expect(ageOn("2008-02-29", "2026-03-01")).toBe(18);
    expect(ageOn("2008-02-29", "2028-02-29")).toBe(20);
    expect(ageOn("2008-02-29", "2028-02-28")).toBe(19);
  });
});

describe("the date of birth's format", () => {
  it("takes real YYYY-MM-DD dates only", () => {
    expect(parseIsoDate("2000-02-29")).toEqual({ year: 2000, month: 2, day: 29 });
    for (const bad of ["1900-02-29", "2023-02-29", "2023-04-31", "2023-00-10", "0099-01-01x"]) {
      expect(parseIsoDate(bad), bad).toBeNull();
    }
    expect(dateOfBirthSchema.safeParse("1900-01-01").success).toBe(true);
    expect(dateOfBirthSchema.safeParse("1899-12-31").success).toBe(false);
    expect(dateOfBirthSchema.safeParse(new Date().toISOString().slice(0, 10)).success).toBe(true);
  });
});
