import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";

describe("security headers", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("JSON answers, errors included, forbid rendering and sniffing", async () => {
    for (const url of ["/api/settings", "/api/no-such-thing"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.headers["content-security-policy"]).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["referrer-policy"]).toBe("no-referrer");
    }
  });

  it("pages get the SPA's policy with no inline scripts, and no HSTS over http", async () => {
    for (const url of ["/", "/api/docs/"]) {
      const response = await t.app.inject({ method: "GET", url });
      const csp = String(response.headers["content-security-policy"]);
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("upgrade-insecure-requests");
      expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(response.headers["strict-transport-security"]).toBeUndefined();
    }
  });
});
