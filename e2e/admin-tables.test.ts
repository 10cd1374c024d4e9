import { expect, test } from "@playwright/test";
import type { Locator, Page } from "playwright-core";
import { signedInAdminToken, signInAdmin, signUpFan } from "./support/accounts";
import { type AdminAndFan, startAdminAndFan } from "./support/admin-and-fan";
import { agreeToDelivery, agreeToRenewal, createAsAdmin, payInSandbox } from "./support/billing";
import type { RunningServer } from "./support/server";

// The operator's transaction tables on a 1280 px laptop with the admin sidebar open: every
// column fits, Transaction ID included, and a long name or e-mail stays on one line (cut with an
// ellipsis, whole in its tooltip). Narrower, the table says it scrolls sideways.
// A fan with a long name and e-mail buys a package and subscribes through the sandbox checkout.

const stamp = `${Date.now()}`;
const PACKAGE = `Table Pack ${stamp}`;
const PLAN = `Table Plan ${stamp}`;
const LONG_NAME = `Maximiliana Featherstonehaugh-Worthington ${stamp}`;
const LONG_EMAIL = `maximiliana.featherstonehaugh-worthington-${stamp}@example-university.test`;

let setup: AdminAndFan;
let server: RunningServer;
let admin: Page;
let fan: Page;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  setup = await startAdminAndFan({ fanWidth: 360 });
  ({ server, admin, fan } = setup);
});

test.afterAll(() => setup?.close());

/** The scrolling region of the screen's table (TableScroll, named by the table's caption). */
const tableScroll = (page: Page) => page.locator("section:has(> table)");

/** The fan's row on the screen, once loaded. */
async function fanRow(page: Page): Promise<Locator> {
  const row = page.getByRole("row").filter({ hasText: LONG_EMAIL }).first();
  await row.waitFor();
  return row;
}

/** Asserts the box lies inside the 1280 px viewport and is not empty. */
async function expectOnScreen(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  if (!box) return;
  expect(box.width).toBeGreaterThan(0);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
}

/** Asserts the text is on one line: its box is one line-height high and it keeps the full value. */
async function expectOneLine(cell: Locator, full: string) {
  await expect(cell.getAttribute("title")).resolves.toBe(full);
  const { height, lineHeight } = await cell.evaluate((el) => ({
    height: el.getBoundingClientRect().height,
    lineHeight: Number.parseFloat(getComputedStyle(el).lineHeight),
  }));
  expect(height).toBeLessThanOrEqual(lineHeight + 1);
}

async function checkScreen(path: string, heading: string, hasTransactionId: boolean) {
  await admin.setViewportSize({ width: 1280, height: 800 });
  await admin.goto(`${server.url}${path}`);
  await admin.getByRole("heading", { name: heading, level: 1 }).waitFor();
  await expect(admin.getByTestId("admin-sidebar").getAttribute("data-state")).resolves.toBe(
    "expanded",
  );
  const row = await fanRow(admin);

  // No hidden column: the table is no wider than its scrolling box, and there is no hint.
  const scroll = tableScroll(admin);
  const widths = await scroll.evaluate((el) => ({
    table: el.scrollWidth,
    box: el.clientWidth,
  }));
  expect(widths.table).toBeLessThanOrEqual(widths.box);
  expect(await scroll.getAttribute("data-scrolls")).toBeNull();
  expect(await admin.getByTestId("table-scroll-hint").count()).toBe(0);
  for (const header of await admin.getByRole("columnheader").all()) await expectOnScreen(header);

  // The name and e-mail on one line each, cut but whole in their tooltips.
  await expectOneLine(row.locator(`[title="${LONG_NAME}"]`), LONG_NAME);
  await expectOneLine(row.locator(`[title="${LONG_EMAIL}"]`), LONG_EMAIL);

  if (hasTransactionId) {
    const headers = await admin.getByRole("columnheader").allTextContents();
    const index = headers.findIndex((h) => h.trim() === "Transaction ID");
    expect(index).toBeGreaterThanOrEqual(0);
    await expectOnScreen(admin.getByRole("columnheader", { name: "Transaction ID" }));
    const cell = row.getByRole("cell").nth(index);
    await expectOnScreen(cell);
    const id = cell.locator("[title]");
    const value = (await id.textContent()) ?? "";
    expect(value).not.toBe("N/A");
    await expectOneLine(id, value);
  }

  // Narrower than the table, it shows that it scrolls sideways.
  await admin.setViewportSize({ width: 800, height: 800 });
  await admin.getByTestId("table-scroll-hint").waitFor();
  expect(await scroll.getAttribute("data-scrolls")).toBe("true");
}

test.describe("admin transaction tables at 1280 px with the sidebar open", () => {
  test("a fan with a long name and e-mail buys a package and subscribes", async () => {
    await signInAdmin(admin, server.url, "/admin/subscriptions");
    const token = await signedInAdminToken(admin);
    await createAsAdmin(admin, server.url, token, "/api/credit-packages", {
      name: PACKAGE,
      credits: 300,
      price: 12,
    });
    await admin.getByRole("button", { name: "Add New Plan" }).click();
    const form = admin.getByRole("dialog", { name: "Add New Plan" });
    await form.getByLabel("Plan name").fill(PLAN);
    await form.getByLabel("Price").fill("9.99");
    await form.getByLabel("Features").fill("Unlimited messages");
    await form.getByRole("button", { name: "Create Plan" }).click();
    await admin.getByText("Subscription plan created successfully").waitFor();

    await signUpFan(fan, server.url, { name: LONG_NAME, email: LONG_EMAIL });
    await fan.goto(`${server.url}/dashboard/credits`);
    await fan
      .getByTestId("credit-package")
      .filter({ hasText: PACKAGE })
      .getByRole("button", { name: `Buy ${PACKAGE}` })
      .click();
    await agreeToDelivery(fan);
    await payInSandbox(fan);
    await fan.waitForURL(/checkout=success/);

    await fan.goto(`${server.url}/dashboard/credits`);
    await fan.getByRole("button", { name: "Subscribe Now" }).click();
    const dialog = fan.getByRole("dialog", { name: "Subscribe to a Plan" });
    await dialog.getByRole("button", { name: new RegExp(PLAN) }).click();
    await agreeToRenewal(dialog);
    await dialog.getByRole("button", { name: "Subscribe", exact: true }).click();
    await payInSandbox(fan);
    await fan.waitForURL(/subscription=success/);
  });

  test("Credit Transactions shows every column, Transaction ID included", async () => {
    await checkScreen("/admin/credit-transactions", "Credit Transactions", true);
  });

  test("Subscription Transactions shows every column, Transaction ID included", async () => {
    await checkScreen("/admin/subscription-transactions", "Subscription Transactions", true);
  });

  test("Subscription History shows every column", async () => {
    await checkScreen("/admin/subscription-history", "Subscription History", false);
  });
});
