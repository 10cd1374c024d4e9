import { AUTH_MESSAGES } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import { resetMail, resetTokenOf } from "./password-reset.ts";

describe("a password reset link", () => {
  it("takes a token of exactly 20 characters and refuses one of 19", () => {
    expect(resetTokenOf("a".repeat(20))).toBe("a".repeat(20));
    expect(() => resetTokenOf("a".repeat(19))).toThrow(AUTH_MESSAGES.resetTokenInvalid);
  });

  it("does not count the spaces a pasted link brings around its token", () => {
    expect(() => resetTokenOf(`  ${"a".repeat(19)} `)).toThrow(AUTH_MESSAGES.resetTokenInvalid);
    expect(resetTokenOf(` ${"a".repeat(20)}\n`)).toBe("a".repeat(20));
  });

  it("shows the account's name as text in the mail, never as markup", () => {
    const mail = resetMail({ email: "fan@example.com", name: "<b>Sam</b>" }, "https://x/r/t");
    expect(mail.html).toContain("Hello &lt;b&gt;Sam&lt;/b&gt;,");
    expect(mail.text).toContain("https://x/r/t");
  });
});
