import { gzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { kb, LANDING_JS_BUDGET_GZIP_BYTES, landingWeight } from "../bench/web/landing-weight";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// The landing page's budget (decision 0033): under 100 KB of gzipped JavaScript, no admin or
// dashboard code. Read twice: from the build manifest (what `/` imports before any lazy import)
// and from what a real Chromium fetches when it opens `/` and the page settles.

let server: RunningServer;
let browser: TestBrowser;

test.beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

test.afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test.describe("landing page weight", () => {
  test("stays under the budget in the build manifest", () => {
    const weight = landingWeight();
    const files = weight.js.map((f) => f.file).join(", ");
    expect(weight.jsGzipBytes, `${kb(weight.jsGzipBytes)} in ${files}`).toBeLessThan(
      LANDING_JS_BUDGET_GZIP_BYTES,
    );
    expect(weight.js.map((f) => f.file)).not.toContainEqual(
      expect.stringMatching(/admin|dashboard|chat|auth-modal|router/i),
    );
  });

  test("stays under the budget in what the browser loads for /, and loads no router, admin or dashboard code", async () => {
    const page = await browser.newPage();
    const scripts: { url: string; body: Promise<Buffer> }[] = [];
    page.on("response", (response) => {
      const url = new URL(response.url());
      if (url.pathname.endsWith(".js")) scripts.push({ url: url.pathname, body: response.body() });
    });
    await page.goto(`${server.url}/`, { waitUntil: "networkidle" });
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toContain("AI Celebrity Assistant");

    const bodies = await Promise.all(scripts.map((s) => s.body));
    const gzipped = bodies.reduce((total, body) => total + gzipSync(body, { level: 9 }).length, 0);
    const names = scripts.map((s) => s.url).join(", ");
    expect(gzipped, `${kb(gzipped)} in ${names}`).toBeLessThan(LANDING_JS_BUDGET_GZIP_BYTES);
    // The chunks the lazy screens are built into: none of them is fetched for the landing page.
    expect(names).not.toMatch(/admin|dashboard|chat-|router/i);

    // The first navigation loads the router and shows the next page in the same document.
    await page.getByRole("link", { name: "Create your free account" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/auth");
    await page.getByTestId("auth-page").waitFor();
    await browser.closePages();
  });
});
