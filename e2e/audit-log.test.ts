import { expect, test } from "@playwright/test";
import type { Page } from "playwright-core";
import { ADMIN_ENV, signInAdmin } from "./support/accounts";
import { fillAuditLog } from "./support/audit";
import { horizontalOverflow, launchBrowser, type TestBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// The audit log as the operator reads it (issue 24): at 1280 px with the sidebar open the Change
// column is on screen and its JSON reads as fields, and each target is named.

let server: RunningServer;
let browser: TestBrowser;
let page: Page;
const stamp = Date.now();

// A first start of PGlite on a busy machine can be slow: the hook waits for it, the tests do not.
const SETUP = 240_000;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(SETUP);
  server = await startServer({ env: ADMIN_ENV, healthTimeoutMs: 180_000 });
  browser = await launchBrowser({ viewport: { width: 1280, height: 800 } });
  // The rows are made from a context of their own; the admin then signs in to read them.
  await fillAuditLog(await browser.newPage(), server.url, stamp);
  page = await browser.newPage();
  await signInAdmin(page, server.url);
});

test.afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The right edge of each element `selector` finds, in CSS pixels. */
const rightEdges = (selector: string) =>
  page.$$eval(selector, (all) => all.map((each) => each.getBoundingClientRect().right));

test.describe("the audit log at 1280 px", () => {
  test("fits the Change column in the viewport with the sidebar open, the JSON as fields", async () => {
    await page.goto(`${server.url}/admin/audit-log`);
    await page.getByTestId("audit-row").first().waitFor();
    expect(await page.getByRole("navigation").first().isVisible()).toBe(true);
    const viewport = page.viewportSize()?.width ?? 0;
    expect(viewport).toBe(1280);

    const header = page.getByRole("columnheader", { name: "Change" });
    const box = await header.boundingBox();
    expect(box, "the Change header is laid out").not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(viewport);
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(240);
    for (const right of await rightEdges("[data-testid=audit-change]")) {
      expect(right).toBeLessThanOrEqual(viewport);
    }
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await page.getByTestId("table-scroll-hint").count()).toBe(0);

    // The settings save reads as the one field it changed, not as a JSON wrapped every few letters.
    const settings = page.getByTestId("audit-row").filter({ hasText: "settings.update" });
    await expect
      .poll(() => settings.getByRole("listitem").allTextContents())
      .toEqual(["defaultCredits: 100 → 123"]);
    const line = settings.getByRole("listitem").first();
    const lineBox = await line.boundingBox();
    expect(lineBox?.height ?? 0).toBeLessThan(24);
  });

  test("names the targets: the plan and package by name, the fan by e-mail, the page by title", async () => {
    await page.goto(`${server.url}/admin/audit-log`);
    await page.getByTestId("audit-row").first().waitFor();
    const labelOf = (action: string) =>
      page
        .getByTestId("audit-row")
        .filter({ hasText: action })
        .first()
        .getByTestId("audit-target-label")
        .textContent();
    expect(await labelOf("plan.create")).toBe(`Audit Plan ${stamp}`);
    expect(await labelOf("package.create")).toBe(`Audit Pack ${stamp}`);
    expect(await labelOf("page.update")).toBe("FAQ");
    expect(await labelOf("user.status")).toMatch(/^audited-.*@example\.com$/);
  });
});
