import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// The admin finds a user and deactivates them; the user's open session ends on its next request.
// Needs the built app with the server's admin routes (issue 3).

const ADMIN_EMAIL = "admin@twinline.test";
const ADMIN_PASSWORD = "admin-pass-123";

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL, ADMIN_PASSWORD } });
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

async function newPage(width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  contexts.push(context);
  return context.newPage();
}

/** Signs a user up through the API inside the page's context and keeps them signed in there. */
async function signUpUser(page: Page, name: string, email: string) {
  const request = page.context().request;
  const csrf = await request.get(`${server.url}/api/csrf-token`);
  expect(csrf.ok()).toBe(true);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signup = await request.post(`${server.url}/api/auth/signup`, {
    headers: { "csrf-token": csrfToken },
    data: { name, email, password: "user-pass-123" },
  });
  expect(signup.status(), await signup.text()).toBeLessThan(300);
  const body = (await signup.json()) as { token: string; user: unknown };
  await page.goto(`${server.url}/`);
  await page.evaluate(
    ({ token, user }) => {
      localStorage.setItem("userToken", token);
      localStorage.setItem("userData", JSON.stringify(user));
    },
    { token: body.token, user: body.user },
  );
}

describe("admin user management", () => {
  it("deactivates a user found by search; their open page is sent back to / on its next request", async () => {
    const stamp = Date.now();
    const userEmail = `fan-${stamp}@example.com`;
    const userName = `Fan ${stamp}`;

    // The user, signed in, with the dashboard open.
    const userPage = await newPage();
    await signUpUser(userPage, userName, userEmail);
    await userPage.goto(`${server.url}/dashboard`);
    await userPage.waitForURL(`${server.url}/dashboard`);
    await userPage.getByText(userName).first().waitFor();

    // The admin, in another browser context: the guard sends them to login first.
    const adminPage = await newPage();
    await adminPage.goto(`${server.url}/admin/users`);
    await adminPage.waitForURL(/\/admin\/Login$/);
    await adminPage.getByLabel("Email").fill(ADMIN_EMAIL);
    await adminPage.getByLabel("Password", { exact: true }).fill(ADMIN_PASSWORD);
    await adminPage.getByRole("button", { name: "Sign In" }).click();
    await adminPage.waitForURL(`${server.url}/admin/users`);
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

  it("opens the user's details from the list and shows the empty transaction tabs", async () => {
    const stamp = Date.now();
    const userEmail = `detail-${stamp}@example.com`;
    const page = await newPage(360);
    await signUpUser(page, `Detail ${stamp}`, userEmail);

    const adminPage = await newPage(360);
    await adminPage.goto(`${server.url}/admin/login`);
    await adminPage.getByLabel("Email").fill(ADMIN_EMAIL);
    await adminPage.getByLabel("Password", { exact: true }).fill(ADMIN_PASSWORD);
    await adminPage.getByRole("button", { name: "Sign In" }).click();
    // A direct login lands on the dashboard (admin-side spec, section 2).
    await adminPage.waitForURL(`${server.url}/admin/dashboard`);
    await adminPage.goto(`${server.url}/admin/users`);
    await adminPage.getByLabel("Search users by name or email").fill(userEmail);
    await expect.poll(() => adminPage.getByTestId("user-row").count()).toBe(1);
    // The table scrolls inside its card, not the page.
    const widths = await adminPage.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);

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
