import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import type { Page } from "playwright-core";
import { SMTPServer } from "smtp-server";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// Sign-up, logout, login, a wrong password and the whole password reset through a real SMTP
// server, in Chromium against the built app.

interface Mail {
  to: string;
  raw: string;
}

let smtp: SMTPServer;
const mails: Mail[] = [];
let server: RunningServer;
let browser: TestBrowser;
let page: Page;

/** Quoted-printable soft breaks and escapes undone, so a long link reads as one line. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

async function waitForMail(to: string, timeoutMs = 15_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mail = mails.find((m) => m.to.toLowerCase() === to.toLowerCase());
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms:\n${server.output()}`);
}

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        raw += chunk;
      });
      stream.on("end", () => {
        for (const rcpt of session.envelope.rcptTo) mails.push({ to: rcpt.address, raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  server = await startServer({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  browser = await launchBrowser();
});

test.afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

test.beforeEach(async () => {
  page = await browser.newPage();
});

test.afterEach(async () => {
  await browser?.closePages();
});

const path = () => new URL(page.url()).pathname;
// A move to another screen loads its lazy code first: on a loaded two-core machine that can take
// longer than expect.poll's default five seconds (the assertion, not the clock, decides).
const MOVE = { timeout: 10_000 };

async function openLogin() {
  await page.goto(`${server.url}/`);
  await page.getByRole("banner").getByRole("button", { name: "Login" }).click();
  return page.getByRole("dialog");
}

async function logIn(email: string, password: string) {
  const dialog = await openLogin();
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Password", { exact: true }).fill(password);
  await dialog.getByRole("button", { name: "Login", exact: true }).click();
}

test.describe("accounts in the browser", () => {
  test("signs up, lands on /dashboard, logs out and logs in again", async () => {
    await page.goto(`${server.url}/`);
    await page.getByRole("banner").getByRole("button", { name: "Sign Up" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("Ada Lovelace");
    await dialog.getByLabel("Email").fill("ada@example.com");
    await dialog.getByLabel("Password", { exact: true }).fill("first-password");
    await dialog.getByLabel("Date of birth").fill("1990-05-17");
    await dialog.getByRole("button", { name: "Create Account" }).click();

    await expect.poll(path, MOVE).toBe("/dashboard");
    await page.getByRole("heading", { name: "Welcome back, Ada!" }).waitFor();
    // Sign-up grants the default 100 credits.
    expect(await page.getByTestId("credit-balance").textContent()).toBe("100");
    expect(await page.evaluate(() => localStorage.getItem("userToken"))).toBeTruthy();

    await page.getByRole("complementary").getByRole("button", { name: "Logout" }).click();
    await expect.poll(path, MOVE).toBe("/");
    expect(await page.evaluate(() => localStorage.getItem("userToken"))).toBeNull();

    // The dashboard is closed to visitors.
    await page.goto(`${server.url}/dashboard/profile`);
    await expect.poll(path, MOVE).toBe("/");

    await logIn("ada@example.com", "first-password");
    await expect.poll(path, MOVE).toBe("/dashboard");

    // The session survives a reload (stored user, refreshed from /api/auth/me).
    await page.goto(`${server.url}/dashboard/profile`);
    await page.getByRole("heading", { name: "My Profile" }).waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe("ada@example.com");
  });

  test("shows Invalid email or password for a wrong password", async () => {
    await logIn("ada@example.com", "not-the-password");
    const alert = page.getByRole("dialog").getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Invalid email or password");
    expect(path()).toBe("/");
  });

  test("resets a forgotten password through the e-mailed link", async () => {
    const dialog = await openLogin();
    await dialog.getByRole("button", { name: "Forgot password?" }).click();
    await dialog.getByLabel("Email").fill("ada@example.com");
    await dialog.getByRole("button", { name: "Send Reset Link" }).click();
    await dialog.getByRole("heading", { name: "Email Sent!" }).waitFor();

    const mail = await waitForMail("ada@example.com");
    const text = decodeQuotedPrintable(mail.raw);
    const escaped = server.url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const link = text.match(new RegExp(`${escaped}/reset-password/[A-Za-z0-9_-]{20,}`))?.[0];
    expect(link, text).toBeTruthy();

    await page.goto(link as string);
    await page.getByLabel("New Password", { exact: true }).fill("second-password");
    await page.getByLabel("Confirm Password", { exact: true }).fill("second-password");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("heading", { name: "Password Reset Successful" }).waitFor();
    await page.getByRole("link", { name: "Go to Dashboard" }).click();
    await expect.poll(path, MOVE).toBe("/dashboard");

    // The link works once.
    await page.evaluate(() => localStorage.clear());
    await page.goto(link as string);
    await page.getByLabel("New Password", { exact: true }).fill("third-password");
    await page.getByLabel("Confirm Password", { exact: true }).fill("third-password");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("heading", { name: "Invalid Reset Link" }).waitFor();

    // The old password is refused, the new one works.
    await logIn("ada@example.com", "first-password");
    await page.getByRole("dialog").getByRole("alert").waitFor();
    await logIn("ada@example.com", "second-password");
    await expect.poll(path, MOVE).toBe("/dashboard");
  });
});
