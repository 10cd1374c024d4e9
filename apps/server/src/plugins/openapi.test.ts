import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";

describe("OpenAPI", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("documents the API routes from their schemas at /api/docs/json", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/api/health", "/api/settings", "/api/csrf-token"]),
    );
    // Documentation of the documentation and the static files stays out.
    expect(Object.keys(document.paths).some((p) => p.startsWith("/api/docs"))).toBe(false);
    const health = document.paths["/api/health"].get.responses;
    expect(Object.keys(health)).toEqual(["200", "503"]);
  });

  it("serves Swagger UI at /api/docs, its scripts as files the CSP allows", async () => {
    let response = await t.app.inject({ method: "GET", url: "/api/docs" });
    if (response.statusCode === 302) {
      response = await t.app.inject({ method: "GET", url: String(response.headers.location) });
    }
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.body).not.toMatch(/<script>(?!\s*<\/script>)/);
    const scripts = [...response.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const url = new URL(String(src), "http://localhost/api/docs/").pathname;
      const script = await t.app.inject({ method: "GET", url });
      expect(script.statusCode, url).toBe(200);
    }
    expect(response.headers["content-security-policy"]).toContain("script-src 'self'");
  });
});
