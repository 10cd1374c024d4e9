import { expect, test } from "@playwright/test";
import { CONTACT_MESSAGES } from "@twinline/contracts";
import type { Page } from "playwright-core";
import { ADMIN_ENV, signInAdmin } from "./support/accounts";
import { sweep } from "./support/axe";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// Issue 26 item 6: the admin sets the contact address in the site settings; the contact page
// shows it and a form that mails it (sent, refused field by field, limited), axe-clean.

let server: RunningServer;
let browser: TestBrowser;
// The machine is shared: starting and the browser may be slow.
const SLOW = 240_000;
const CONTACT = "hello@velvet.example";

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(SLOW);
  server = await startServer({ env: ADMIN_ENV, healthTimeoutMs: SLOW });
  // axe-core goes in as a script tag; the app's CSP (script-src 'self') would refuse it.
  browser = await launchBrowser({ contextOptions: { bypassCSP: true } });
});

test.afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const form = (page: Page) => page.getByRole("form", { name: "Contact form" });

async function fillAndSend(page: Page, message = "Hello there, I have a question about plans.") {
  await page.getByLabel("Your name").fill("Mia");
  await page.getByLabel("Your e-mail").fill("mia@example.com");
  await page.getByLabel("Message").fill(message);
  await page.getByRole("button", { name: "Send message" }).click();
}

test.describe("the contact page", () => {
  test("shows no form until the admin sets a contact address in Site Settings", async () => {
    test.setTimeout(SLOW);
    const page = await browser.newPage();
    await page.goto(`${server.url}/contact`);
    await page.getByTestId("site-page-content").waitFor();
    expect(await form(page).count()).toBe(0);

    const admin = await browser.newPage();
    await signInAdmin(admin, server.url, "/admin/Settings");
    const field = admin.getByLabel("Contact E-mail");
    await field.fill("not an address");
    await admin.getByRole("button", { name: "Save Settings" }).click();
    await admin.getByText("Contact e-mail must be a valid e-mail address").waitFor();
    await field.fill(CONTACT);
    await admin.getByRole("button", { name: "Save Settings" }).click();
    await admin.getByText("Settings saved successfully!").first().waitFor();
  });

  test("sends a message, refuses bad input by field, shows the limit, with no axe violation", async () => {
    test.setTimeout(SLOW);
    const page = await browser.newPage();
    await page.goto(`${server.url}/contact`);
    await form(page).waitFor();
    expect(await page.getByTestId("contact-email").getAttribute("href")).toBe(`mailto:${CONTACT}`);
    const violations = await sweep(page, "/contact");

    // Empty: each field says what is wrong, nothing is sent.
    await page.getByRole("button", { name: "Send message" }).click();
    await page.getByText(CONTACT_MESSAGES.nameRequired).waitFor();
    await page.getByText(CONTACT_MESSAGES.invalidEmail).waitFor();
    await page.getByText(CONTACT_MESSAGES.messageTooShort).waitFor();
    expect(await page.getByLabel("Your name").getAttribute("aria-invalid")).toBe("true");
    violations.push(...(await sweep(page, "/contact with errors")));

    await fillAndSend(page);
    await page.getByRole("status").filter({ hasText: CONTACT_MESSAGES.sent }).waitFor();
    expect(await page.getByLabel("Message").inputValue()).toBe("");
    violations.push(...(await sweep(page, "/contact sent")));

    // Five an hour from one address: the sixth is refused, and the form says so.
    for (let sent = 1; sent < 5; sent++) {
      await fillAndSend(page);
      await page.getByRole("button", { name: "Send message" }).waitFor();
      await expect.poll(() => page.getByLabel("Message").inputValue()).toBe("");
    }
    await fillAndSend(page);
    await page.getByRole("alert").filter({ hasText: "Too many attempts" }).waitFor();
    violations.push(...(await sweep(page, "/contact refused")));
    expect(violations).toEqual([]);
  });
});
