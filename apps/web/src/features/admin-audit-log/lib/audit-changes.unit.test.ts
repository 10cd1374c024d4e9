import { describe, expect, it } from "vitest";
import { auditChanges, showValue } from "./audit-changes";

describe("auditChanges", () => {
  it("lists only the fields that changed, nested ones by their dotted path", () => {
    const before = { defaultCredits: 100, siteName: "Twin", apiKeys: { openai: "••••abcd", x: 1 } };
    const after = { defaultCredits: 77, siteName: "Twin", apiKeys: { openai: "••••cdef", x: 1 } };
    expect(auditChanges(before, after)).toEqual([
      { field: "defaultCredits", before: "100", after: "77" },
      { field: "apiKeys.openai", before: "••••abcd", after: "••••cdef" },
    ]);
  });

  it("shows a create's fields as new, a note as it was, not what only the answer has", () => {
    expect(auditChanges(null, { _id: "p1", name: "Gold", features: ["a", "b"] })).toEqual([
      { field: "name", after: "Gold" },
      { field: "features", after: '["a","b"]' },
    ]);
    expect(
      auditChanges({ isActive: true, reason: "Spam" }, { isActive: false, email: "a@b.c" }),
    ).toEqual([
      { field: "isActive", before: "true", after: "false" },
      { field: "reason", before: "Spam" },
    ]);
    expect(auditChanges(null, null)).toEqual([]);
    expect(auditChanges("old", "new")).toEqual([{ field: "value", before: "old", after: "new" }]);
  });

  it("cuts a long text to one short line", () => {
    const shown = showValue(`line one\n${"x".repeat(200)}`);
    expect(shown).toHaveLength(80);
    expect(shown.startsWith("line one x")).toBe(true);
    expect(shown.endsWith("…")).toBe(true);
  });
});
