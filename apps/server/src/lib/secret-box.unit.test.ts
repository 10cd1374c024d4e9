import { describe, expect, it } from "vitest";
import { createSecretBox } from "./secret-box.ts";

describe("secret box", () => {
  const box = createSecretBox("k".repeat(32));

  it("round-trips, with a fresh IV each time and no plaintext in the sealed form", () => {
    const a = box.seal("sk-live-secret-value");
    const b = box.seal("sk-live-secret-value");
    expect(a).not.toBe(b);
    expect(a.startsWith("v1.")).toBe(true);
    expect(a).not.toContain("secret");
    expect(box.open(a)).toBe("sk-live-secret-value");
  });

  it("refuses a changed byte, another key and an unknown version", () => {
    const sealed = box.seal("sk-abc");
    const bytes = Buffer.from(sealed.slice(3), "base64url");
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    expect(() => box.open(`v1.${bytes.toString("base64url")}`)).toThrow();
    expect(() => createSecretBox("z".repeat(32)).open(sealed)).toThrow();
    expect(() => box.open(`v9.${sealed.slice(3)}`)).toThrow(/Unknown/);
  });
});
