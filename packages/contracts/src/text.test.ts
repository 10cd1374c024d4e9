import { describe, expect, it } from "vitest";
import { queryDate, safeText, singleLineText, TEXT_MESSAGES } from "./text";

describe("strings the database can store", () => {
  it("safeText refuses NUL and unpaired surrogates, keeps emoji and other text", () => {
    const schema = safeText().trim().min(1);
    for (const bad of ["a\u0000b", "\ud800", "x\udc00", "\ud83d"]) {
      const result = schema.safeParse(bad);
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(TEXT_MESSAGES.unsafe);
    }
    for (const good of ["Test User", "😀 émoji", "line\nbreak", "tab\there"]) {
      expect(schema.safeParse(good).success, good).toBe(true);
    }
  });

  it("singleLineText refuses every control character too", () => {
    for (const bad of ["sk-abc\u0007", "key\n", "a\u007f", "\u0085x"]) {
      expect(singleLineText().safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(singleLineText().safeParse("sk-abc_DEF-123").success).toBe(true);
  });

  it("queryDate takes years 1 to 9998 only", () => {
    const schema = queryDate("date must be a date");
    expect(schema.safeParse("2026-11-22").success).toBe(true);
    expect(schema.safeParse("0001-01-01").success).toBe(true);
    for (const bad of ["0000-01-01", "9999-12-31", "10000-01-01", "2026-02-30", "22-11-2026"]) {
      expect(schema.safeParse(bad).success, bad).toBe(false);
    }
  });
});
