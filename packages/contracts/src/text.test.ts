import { describe, expect, it } from "vitest";
import { safeText, singleLineText, TEXT_MESSAGES } from "./text";

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
});
