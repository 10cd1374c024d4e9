import { expect, test } from "@playwright/test";
import { ADMIN_ENV, signInAdmin, signUpFan } from "./support/accounts";
import { horizontalOverflow, launchBrowser, type TestBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// The admin finds a user and deactivates them; the user's open session ends on its next request.
// Needs the built app with the server's admin routes (issue 3).

let server: RunningServer;
let browser: TestBrowser;

test.beforeAll(async () => {
  server = await startServer({ env: ADMIN_ENV });
  browser = await launchBrowser();
});

test.afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test.describe("admin user management", () => {
  test("deactivates a user found by search; their open page is sent back to / on its next request", async () => {
    const stamp = Date.now();
    const userEmail = `fan-${stamp}@example.com`;
    const userName = `Fan ${stamp}`;

    // The user, signed in, with the dashboard open.
    const userPage = await browser.newPage();
    await signUpFan(userPage, server.url, { name: userName, email: userEmail });
    await userPage.goto(`${server.url}/dashboard`);
    await userPage.waitForURL(`${server.url}/dashboard`);
    await userPage.getByText(userName).first().waitFor();

    // The admin, in another browser context: the guard sends them to login first.
    const adminPage = await browser.newPage();
    await signInAdmin(adminPage, server.url, "/admin/users");
    expect(await adminPage.evaluate(() => Boolean(localStorage.getItem("adminToken")))).toBe(true);

    // Find the user by search.
    const search = adminPage.waitForRequest(
      (r) => new URL(r.url()).searchParams.get("search") === userEmail,
    );
    await adminPage.getByLabel("Search users by name or email").fill(userEmail);
    await search;
    const rows = adminPage.getByTestId("user-row");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(userName);

    // Deactivate behind the confirmation.
    await adminPage.getByRole("button", { name: `Deactivate ${userName}` }).click();
    const dialog = adminPage.getByRole("alertdialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(userEmail);
    const statusCall = adminPage.waitForResponse(
      (r) => r.request().method() === "PUT" && new URL(r.url()).pathname.endsWith("/status"),
    );
    await dialog.getByRole("button", { name: "Deactivate", exact: true }).click();
    expect((await statusCall).ok()).toBe(true);
    await adminPage.getByRole("button", { name: `Activate ${userName}` }).waitFor();
    expect(await rows.first().textContent()).toContain("Inactive");

    // The user's open page: its next request (a reload calls /api/auth/me) ends the session.
    const me = userPage.waitForResponse((r) => new URL(r.url()).pathname === "/api/auth/me");
    await userPage.reload();
    expect((await me).status()).toBeGreaterThanOrEqual(400);
    await userPage.waitForURL(`${server.url}/`);
    expect(await userPage.evaluate(() => localStorage.getItem("userToken"))).toBeNull();
  });

  test("opens the user's details from the list and shows the empty transaction tabs", async () => {
    const stamp = Date.now();
    const userEmail = `detail-${stamp}@example.com`;
    const page = await browser.newPage(360);
    await signUpFan(page, server.url, { name: `Detail ${stamp}`, email: userEmail });

    const adminPage = await browser.newPage(360);
    await signInAdmin(adminPage, server.url);
    await adminPage.goto(`${server.url}/admin/users`);
    await adminPage.getByLabel("Search users by name or email").fill(userEmail);
    await expect.poll(() => adminPage.getByTestId("user-row").count()).toBe(1);
    // The table scrolls inside its card, not the page.
    expect(await horizontalOverflow(adminPage)).toBeLessThanOrEqual(0);

    await adminPage.getByRole("link", { name: `View details of Detail ${stamp}` }).click();
    await adminPage.getByRole("heading", { name: "User Details" }).waitFor();
    expect(await adminPage.getByTestId("subscription-card").textContent()).toContain(
      "No Active Subscription",
    );
    await adminPage.getByRole("tab", { name: "Credit Transactions" }).click();
    await adminPage.getByText("No credit transactions found").waitFor();
    await adminPage.getByRole("link", { name: "Back to Users" }).click();
    await adminPage.waitForURL(`${server.url}/admin/users`);
  });
});
