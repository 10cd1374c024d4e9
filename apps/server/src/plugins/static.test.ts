import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";

const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script>' +
  "</head><body><div id=root></div></body></html>";

/** A stand-in for `vite build` output: index.html, a hashed asset, a public file. */
function fakeWebBuild(): string {
  const dist = mkdtempSync(join(tmpdir(), "twinline-web-dist-"));
  mkdirSync(join(dist, "assets"));
  writeFileSync(join(dist, "index.html"), INDEX_HTML);
  writeFileSync(join(dist, "assets", "index-Ab12Cd34.js"), "console.log('app')");
  writeFileSync(join(dist, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  writeFileSync(join(dist, "sw.js"), "self.skipWaiting()");
  return dist;
}

describe("serving the web app", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ webDistDir: fakeWebBuild() });
  });
  afterAll(() => t?.close());

  it("serves hashed assets with a one-year immutable cache", async () => {
    const response = await t.app.inject({ method: "GET", url: "/assets/index-Ab12Cd34.js" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe("console.log('app')");
    expect(response.headers["content-type"]).toMatch(/javascript/);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("serves index.html at / and revalidates it every time", async () => {
    const response = await t.app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.body).toBe(INDEX_HTML);
    expect(response.headers["cache-control"]).toBe("no-cache");
  });

  it("serves other files of the build without the long cache", async () => {
    const response = await t.app.inject({ method: "GET", url: "/favicon.svg" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-cache");
  });

  it("serves the service worker as JavaScript, revalidated every time, so a new build's worker is found at once", async () => {
    const response = await t.app.inject({ method: "GET", url: "/sw.js" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe("self.skipWaiting()");
    expect(response.headers["content-type"]).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers["cache-control"]).toBe("no-cache");
  });

  it("answers index.html with 200 for the app's own page paths", async () => {
    for (const url of [
      "/dashboard",
      "/dashboard/anything",
      "/admin/users/42",
      "/admin/useranalytics",
      "/character/3",
      "/reset-password/abc?x=1",
    ]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(INDEX_HTML);
      expect(response.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("answers 200 on a direct load of every admin screen (spec section 2, and the audit log)", async () => {
    // The admin-side spec's route table, both spellings of the login, and the screens issues
    // added (the audit log, issue 16): a direct load or a reload of any of them is a page, not a 404.
    for (const url of [
      "/admin",
      "/admin/Login",
      "/admin/login",
      "/admin/dashboard",
      "/admin/users",
      "/admin/users/6f1c2d3e-0000-4000-8000-000000000001",
      "/admin/chat-logs",
      "/admin/api-keys",
      "/admin/subscriptions",
      "/admin/AITraining",
      "/admin/Settings",
      "/admin/ManageCredits",
      "/admin/UserAnalytics",
      "/admin/subscription-transactions",
      "/admin/credit-transactions",
      "/admin/subscription-history",
      "/admin/audit-log",
      "/admin/audit-log?page=2",
    ]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(INDEX_HTML);
    }
  });

  it("answers 404 with the app's body for paths the app does not know, so its 404 screen shows", async () => {
    for (const url of ["/no/such/page?tab=1", "/admin/nope", "/character", "/characters/1"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).toBe(INDEX_HTML);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
    }
  });

  it("does not answer HTML for a missing hashed asset", async () => {
    const response = await t.app.inject({ method: "GET", url: "/assets/index-Old00000.js" });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain("<html");
  });

  it("keeps unknown /api paths JSON", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/nothing-here" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false });
  });

  it("sends the content security policy of the SPA with pages", async () => {
    const response = await t.app.inject({ method: "GET", url: "/" });
    const csp = String(response.headers["content-security-policy"]);
    const directives = Object.fromEntries(
      csp.split(";").map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(" ")];
      }),
    );
    expect(directives).toEqual({
      "default-src": "'self'",
      "script-src": "'self' 'wasm-unsafe-eval'",
      "style-src": "'self' 'unsafe-inline'",
      "img-src": "'self' data: blob: https:",
      "connect-src": "'self' ws: wss:",
      "media-src": "'self' blob: data:",
      "font-src": "'self' data:",
      "frame-ancestors": "'none'",
      "object-src": "'none'",
      "form-action": "'self'",
      "base-uri": "'self'",
    });
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["strict-transport-security"]).toBeUndefined();
  });
});

describe("without a web build", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("pages answer 503 saying how to build, while the API works", async () => {
    const page = await t.app.inject({ method: "GET", url: "/" });
    expect(page.statusCode).toBe(503);
    expect(page.headers["content-type"]).toMatch(/^text\/plain/);
    expect(page.body).toContain("npm run build");

    const api = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(api.statusCode).toBe(200);
  });
});

describe("served over https", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: "https://twin.example.com" } });
  });
  afterAll(() => t?.close());

  it("upgrades insecure requests, sends HSTS and marks the CSRF cookie Secure", async () => {
    const page = await t.app.inject({ method: "GET", url: "/" });
    expect(page.headers["content-security-policy"]).toContain("upgrade-insecure-requests");
    expect(page.headers["strict-transport-security"]).toMatch(/max-age=\d+/);

    const api = await t.app.inject({ method: "GET", url: "/api/csrf-token" });
    expect(api.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
    expect(api.cookies.find((c) => c.name === "_csrf")?.secure).toBe(true);
  });
});
