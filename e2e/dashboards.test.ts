import { expect, test } from "@playwright/test";
import type { Page } from "playwright-core";
import { ADMIN_ENV, csrfToken, type Fan, signInAdmin, signUpFan } from "./support/accounts";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// The figures a user and the operator look at first: the user overview, the admin dashboard,
// the user analytics and a character page, on the built app with the offline providers.

let server: RunningServer;
let browser: TestBrowser;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer({ env: ADMIN_ENV });
  browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
});

test.afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Signs a fan up, sends one chat message through the API and leaves them signed in. */
async function signUpAndChat(page: Page, fan: Fan) {
  const token = await signUpFan(page, server.url, fan);
  const sent = await page.context().request.post(`${server.url}/api/chat/message`, {
    headers: { "csrf-token": await csrfToken(page, server.url), authorization: `Bearer ${token}` },
    data: { message: "Hello there" },
  });
  expect(sent.status(), await sent.text()).toBe(200);
}

test.describe("dashboards", () => {
  const stamp = Date.now();
  const userName = `Test User ${stamp}`;
  const userEmail = `dash-${stamp}@example.com`;
  let userPage: Page;

  test("the user overview shows the real figures: credits, one message sent, four left today", async () => {
    userPage = await browser.newPage();
    await signUpAndChat(userPage, { name: userName, email: userEmail });
    await userPage.goto(`${server.url}/dashboard`);
    await userPage.getByRole("heading", { name: `Welcome back, Test!` }).waitFor();
    const messages = userPage.getByTestId("card-messages");
    await expect.poll(() => messages.textContent()).toContain("4 free messages remaining today");
    expect(await messages.textContent()).toContain("1");
    expect(await userPage.getByTestId("credit-balance").textContent()).toBe("100");
    expect(await userPage.getByTestId("card-calls").textContent()).toContain("Total talk time: 0s");
    await userPage.getByText("No transactions yet").waitFor();
    expect(await userPage.getByRole("link", { name: "View All" }).getAttribute("href")).toBe(
      "/dashboard/transactions",
    );
  });

  test("a character page: attribute bars, Voice Chat locked on character 2, Text Chat to the chat", async () => {
    await userPage.goto(`${server.url}/character/2`);
    await userPage.getByRole("heading", { name: "Brann Emberforge", level: 1 }).waitFor();
    expect(await userPage.getByRole("meter").count()).toBe(5);
    expect(await userPage.getByRole("button", { name: /Voice Chat/ }).isDisabled()).toBe(true);
    await userPage.getByRole("button", { name: /Text Chat/ }).click();
    await userPage.waitForURL(`${server.url}/dashboard/chat`);
    await userPage.goto(`${server.url}/character/3`);
    await userPage.getByRole("heading", { name: "Character not found" }).waitFor();
  });

  test("unknown paths answer 404 with the app's 404 screen", async () => {
    const response = await userPage.goto(`${server.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    await userPage.getByRole("heading", { name: "Oops! Page not found" }).waitFor();
  });

  test("the admin lands on the dashboard: users, revenue, charts", async () => {
    const adminPage = await browser.newPage();
    await signInAdmin(adminPage, server.url);
    const totalUsers = adminPage.getByTestId("metric-card").filter({ hasText: "Total Users" });
    await expect
      .poll(async () => Number((await totalUsers.textContent())?.replace(/\D/g, "")))
      .toBeGreaterThanOrEqual(1);
    expect(
      await adminPage.getByTestId("metric-card").filter({ hasText: "Total Revenue" }).textContent(),
    ).toContain("$0");
    await adminPage.getByRole("heading", { name: "User Growth" }).waitFor();
    await adminPage.getByRole("heading", { name: "Revenue Analytics" }).waitFor();
    await adminPage.getByTestId("series-charts").locator("svg").first().waitFor();
    await adminPage.getByRole("button", { name: "90 days" }).click();
    expect(
      await adminPage.getByRole("button", { name: "90 days" }).getAttribute("aria-pressed"),
    ).toBe("true");
  });

  test("user analytics lists the user who chatted, found by e-mail", async () => {
    const adminPage = await browser.newPage();
    await signInAdmin(adminPage, server.url);
    await adminPage.goto(`${server.url}/admin/UserAnalytics`);
    await adminPage.getByRole("heading", { name: "User Analytics", level: 1 }).waitFor();
    await adminPage.getByLabel("Search users by name or email").fill(userEmail.toUpperCase());
    const rows = adminPage.getByTestId("analytics-row");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(userName);
    // One message from the user: the 30 s allowance of decision 0026, plus the reply's gap.
    expect(await rows.first().textContent()).toMatch(/\d+s/);
    await adminPage.getByText("Showing 1 to 1 of 1 users").waitFor();
  });

  test("admin tables fit 1280 px with the sidebar open: no cut columns, actions on screen", async () => {
    const adminPage = await browser.newPage(1280);
    await signInAdmin(adminPage, server.url);
    for (const path of ["/admin/users", "/admin/chat-logs"]) {
      await adminPage.goto(`${server.url}${path}`);
      const table = adminPage.locator("table").first();
      await table
        .locator("tbody tr[data-testid='user-row'], tbody tr[data-testid='chat-log-row']")
        .first()
        .waitFor();
      await adminPage.screenshot({ path: `/tmp/twinline-e2e${path.replaceAll("/", "-")}.png` });
      const fit = await table.evaluate((element) => {
        const scroller = element.parentElement as HTMLElement;
        const right = element.getBoundingClientRect().right;
        return {
          overflow: scroller.scrollWidth - scroller.clientWidth,
          right,
          viewport: document.documentElement.clientWidth,
        };
      });
      expect(fit.overflow, path).toBeLessThanOrEqual(0);
      expect(fit.right, path).toBeLessThanOrEqual(fit.viewport);
    }
  });
});
