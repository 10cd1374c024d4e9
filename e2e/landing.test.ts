import { expect, test } from "@playwright/test";
import type { Page } from "playwright-core";
import { horizontalOverflow, launchBrowser, type TestBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// The landing page, the theme and the 404 screen in a real Chromium, against the built app.

let server: RunningServer;
let browser: TestBrowser;
let page: Page;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

test.afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test.beforeEach(async () => {
  page = await browser.newPage();
});

test.afterEach(async () => {
  await browser?.closePages();
});

test.describe("landing page", () => {
  test("shows six features, three five-star testimonials and the footer statement", async () => {
    const settings = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/settings");
    await page.goto(`${server.url}/`);
    // The spec's default persona, served by GET /api/settings: no fall-back notice.
    expect((await settings).ok()).toBe(true);
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toContain("AI Celebrity Assistant");
    expect(await page.getByText("Failed to load settings. Using defaults.").count()).toBe(0);

    expect(await page.getByTestId("feature-card").count()).toBe(6);
    const testimonials = page.getByTestId("testimonial");
    expect(await testimonials.count()).toBe(3);
    for (let i = 0; i < 3; i++) {
      expect(await testimonials.nth(i).getByTestId("star").count()).toBe(5);
    }
    const statement = await page.getByTestId("footer-statement").textContent();
    expect(statement).toMatch(/AI experience/);
    expect(statement).toMatch(/fictional/);
    expect(statement).toMatch(/18 or older/);
    expect(await page.locator("footer").textContent()).toContain("© 2025");
  });

  test("keeps the chosen theme across a reload", async () => {
    await page.goto(`${server.url}/`);
    const toggle = page.getByTestId("theme-toggle");
    await toggle.waitFor();
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    const before = await isDark();

    await toggle.click();
    await expect.poll(isDark).toBe(!before);

    await page.reload();
    await page.getByTestId("theme-toggle").waitFor();
    expect(await isDark()).toBe(!before);

    // Switch to dark explicitly and check it survives a reload too.
    if (!(await isDark())) await page.getByTestId("theme-toggle").click();
    await page.reload();
    await page.getByTestId("theme-toggle").waitFor();
    expect(await page.evaluate(() => document.documentElement.className)).toContain("dark");
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
  });

  test("shows the 404 screen on an unknown path", async () => {
    const response = await page.goto(`${server.url}/no/such/page`);
    expect(response?.status()).toBeLessThan(500);
    const notFound = page.getByTestId("not-found");
    await notFound.waitFor();
    expect(await notFound.textContent()).toContain("404");
    expect(await page.getByRole("heading", { name: "Oops! Page not found" }).count()).toBe(1);

    await page.getByRole("link", { name: /home/i }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByTestId("feature-card").first().waitFor();
  });

  test("has no horizontal scroll at 360 px wide", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${server.url}/`);
    await page.getByTestId("feature-card").first().waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });
});
