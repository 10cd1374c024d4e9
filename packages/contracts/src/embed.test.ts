import { describe, expect, it } from "vitest";
import {
  EMBED_ORIGIN_MESSAGES,
  EMBED_ORIGINS_LIMITS,
  embedOriginsSchema,
  isEmbedOrigin,
} from "./embed";

describe("embed origins (decision 0085)", () => {
  it("takes https origins, and http only for a local host", () => {
    for (const origin of [
      "https://example.com",
      "https://www.example.co.uk:8443",
      "http://localhost:5173",
      "http://127.0.0.1:8080",
      "http://[::1]:3000",
    ]) {
      expect(isEmbedOrigin(origin), origin).toBe(true);
    }
  });

  it("refuses what the browser would not compare as an origin", () => {
    for (const value of [
      "http://example.com",
      "https://example.com/",
      "https://example.com/page",
      "https://Example.com",
      "https://example.com:443",
      "https://*.example.com",
      "https://user@example.com",
      "example.com",
      "javascript:alert(1)",
      "https://example.com; script-src *",
      "https://example.com:70000",
      "'self'",
    ]) {
      expect(isEmbedOrigin(value), value).toBe(false);
    }
  });

  it("bounds the list and names the field in its errors", () => {
    const tooMany = Array.from(
      { length: EMBED_ORIGINS_LIMITS.maxOrigins + 1 },
      (_, i) => `https://site${i}.example`,
    );
    const many = embedOriginsSchema.safeParse(tooMany);
    expect(many.success).toBe(false);
    expect(many.error?.issues[0]?.message).toBe(EMBED_ORIGIN_MESSAGES.tooMany);
    const bad = embedOriginsSchema.safeParse(["https://ok.example", "ftp://nope.example"]);
    expect(bad.error?.issues[0]?.message).toMatch(/^Embed origins: /);
    expect(bad.error?.issues[0]?.path).toEqual([1]);
  });
});
