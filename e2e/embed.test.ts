import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import type { Frame, FrameLocator, Page } from "playwright-core";
import {
  ADMIN_ENV,
  changeSettingsAsAdmin,
  FAN_BIRTH_DATE,
  FAN_PASSWORD,
  signUpFan,
  uniqueFan,
} from "./support/accounts";
import { sweep } from "./support/axe";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

/**
 * The twin on the creator's site (issue 27 item 5; docs/decisions/0085-embed-widget.md): a page
 * of another site (http://localhost:<port>, another site than the app at 127.0.0.1) carries the
 * snippet; the bubble opens the chat in a frame, the fan logs in through the popup and talks to
 * the twin; a visitor tries the twin in the frame without an account and signs up through the
 * popup, the trial becoming the account's (decision 0089); a site the operator did not list
 * cannot frame it.
 */

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

let server: RunningServer;
let browser: TestBrowser;
const hosts: Server[] = [];

/** A host site on its own port of localhost: one page with the snippet. */
async function hostSite(appUrl: string, theme?: "dark" | "light"): Promise<string> {
  const themeAttribute = theme ? ` data-theme="${theme}"` : "";
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Creator's site</title></head>
<body><h1>The creator's own site</h1>
<script src="${appUrl}/embed.js"${themeAttribute} async></script></body></html>`;
  const host = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(html);
  });
  await new Promise<void>((resolve) => host.listen(0, "localhost", resolve));
  hosts.push(host);
  return `http://localhost:${(host.address() as AddressInfo).port}`;
}

const bubble = (page: Page) => page.getByRole("button", { name: "Open chat" });
const chatFrame = (page: Page): FrameLocator => page.frameLocator("iframe[data-twinline-frame]");

async function frameOf(page: Page): Promise<Frame> {
  const handle = await page.locator("iframe[data-twinline-frame]").elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error("no chat frame");
  return frame;
}

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer({ env: ADMIN_ENV });
  browser = await launchBrowser();
});

test.afterAll(async () => {
  await browser?.close();
  await Promise.all(hosts.map((host) => new Promise((resolve) => host.close(resolve))));
  await server?.stop();
});

test.describe("the chat bubble on another site", () => {
  let listed: string;
  let unlisted: string;

  test.beforeAll(async () => {
    test.setTimeout(60_000);
    listed = await hostSite(server.url, "dark");
    unlisted = await hostSite(server.url);
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await changeSettingsAsAdmin(page, server.url, { embedOrigins: [listed] });
  });

  test("opens the chat from a listed site; the fan logs in through the popup and hears the twin", async () => {
    test.setTimeout(120_000);
    const page = await browser.newPage();
    const fan = uniqueFan("embed-fan", "Embed Fan");
    await signUpFan(page, server.url, fan);
    // Signed out on the app's own site: the popup's login form is the way in.
    await page.evaluate(() => localStorage.clear());

    await page.goto(`${listed}/`);
    await bubble(page).click();
    const frame = chatFrame(page);
    await frame.getByTestId("embed-page").waitFor();
    // The host asked for the dark theme.
    expect(
      await (await frameOf(page)).evaluate(() =>
        document.documentElement.classList.contains("dark"),
      ),
    ).toBe(true);
    await page.getByRole("button", { name: "Close chat" }).waitFor();

    const popupOpened = page.context().waitForEvent("page");
    await frame.getByRole("button", { name: "Log In" }).click();
    const popup = await popupOpened;
    await popup.waitForURL(/\/embed\/sign-in\?tab=login$/);
    expect(new URL(popup.url()).origin).toBe(server.url);
    await popup.getByLabel("Email").fill(fan.email);
    await popup.getByLabel("Password", { exact: true }).fill(FAN_PASSWORD);
    const closed = popup.waitForEvent("close");
    await popup.getByRole("button", { name: "Login", exact: true }).click();
    await closed;

    // The session came back to the frame: the chat feature's screen.
    const message = frame.getByRole("textbox", { name: /^Message / });
    await message.waitFor({ timeout: 15_000 });
    await message.fill("Hello from the creator's site");
    // The frame's send passes the server's CSRF rule without the cookie it cannot have (0089).
    const sent = page.waitForResponse((r) => r.url().endsWith("/api/chat/message"));
    await message.press("Enter");
    expect((await sent).status()).toBe(200);
    await frame
      .getByTestId("user-message")
      .filter({ hasText: "Hello from the creator's site" })
      .waitFor();
    await expect
      .poll(
        async () => (await frame.getByTestId("ai-message").allInnerTexts()).join(" ").trim().length,
        {
          timeout: 30_000,
        },
      )
      .toBeGreaterThan(0);
  });

  test("a fan already signed in on the app's site is handed over by the popup at once", async () => {
    test.setTimeout(90_000);
    const page = await browser.newPage();
    await signUpFan(page, server.url, uniqueFan("embed-known", "Known Fan"));
    await page.goto(`${listed}/`);
    await bubble(page).click();
    const frame = chatFrame(page);
    // The frame's storage is the host site's partition: not signed in there yet.
    await frame.getByRole("button", { name: "Sign Up" }).waitFor();
    const popupOpened = page.context().waitForEvent("page");
    await frame.getByRole("button", { name: "Sign Up" }).click();
    const popup = await popupOpened;
    await expect.poll(() => popup.isClosed(), { timeout: 15_000 }).toBe(true);
    await frame.getByRole("textbox", { name: /^Message / }).waitFor({ timeout: 15_000 });
    // The chat's own calls carry the handed-over token: its empty conversation loads.
    await frame.getByText(/Say hello to/).waitFor({ timeout: 15_000 });
    await expect(frame.getByRole("button", { name: "Sign Up" }).count()).resolves.toBe(0);
  });

  test("a visitor uses the trial in the frame, signs up in the popup, and finds the trial in the chat", async () => {
    test.setTimeout(150_000);
    const page = await browser.newPage();
    const fan = uniqueFan("embed-trial", "Trial Fan");
    await page.goto(`${listed}/`);
    await bubble(page).click();
    const frame = chatFrame(page);
    const trial = frame.getByTestId("trial-chat");
    await trial.waitFor();
    await expect.poll(() => trial.getByTestId("trial-remaining").textContent()).toContain("3 free");
    // The frame of another site keeps no storage here: the device rides in a header.
    expect(
      await (await frameOf(page)).evaluate(() => {
        try {
          localStorage.getItem("x");
          return "storage";
        } catch {
          return "blocked";
        }
      }),
    ).toBe("blocked");

    const texts = ["Hello from the host's page", "Do you like jazz?", "One last free question"];
    let popupOpened: Promise<Page> | undefined;
    for (const [i, text] of texts.entries()) {
      if (i === texts.length - 1) popupOpened = page.context().waitForEvent("page");
      const box = trial.getByRole("textbox", { name: /^Message / });
      await box.fill(text);
      await box.press("Enter");
      await trial.getByTestId("user-message").filter({ hasText: text }).waitFor();
      await expect
        .poll(() => trial.getByTestId("ai-message").count(), { timeout: 30_000 })
        .toBe(i + 1);
    }
    // The allowance is used: the trial says so and the sign-up popup opens by itself.
    await trial.getByRole("button", { name: "Sign up to keep chatting" }).waitFor();
    const popup = await (popupOpened as Promise<Page>);
    await popup.waitForURL(/\/embed\/sign-in\?tab=signup$/);
    await popup.getByLabel("Name").fill(fan.name);
    await popup.getByLabel("Email").fill(fan.email);
    await popup.getByLabel("Password", { exact: true }).fill(FAN_PASSWORD);
    await popup.getByLabel("Date of birth").fill(FAN_BIRTH_DATE);
    const closed = popup.waitForEvent("close");
    await popup.getByRole("button", { name: "Create Account" }).click();
    await closed;

    // Signed in, the frame shows the chat, and the trial's conversation is in it.
    await frame.getByRole("textbox", { name: /^Message / }).waitFor({ timeout: 15_000 });
    expect(await frame.getByTestId("trial-chat").count()).toBe(0);
    for (const text of texts) {
      await frame.getByTestId("user-message").filter({ hasText: text }).waitFor();
    }
    expect(await frame.getByTestId("ai-message").count()).toBe(3);
  });

  test("is refused by the browser on a site the operator did not list", async () => {
    test.setTimeout(60_000);
    const page = await browser.newPage();
    const refusals: string[] = [];
    page.on("console", (entry) => {
      if (/frame-ancestors/.test(entry.text())) refusals.push(entry.text());
    });
    await page.goto(`${unlisted}/`);
    await bubble(page).click();
    await page.locator("iframe[data-twinline-frame]").waitFor();
    await expect
      .poll(async () => (await frameOf(page)).url(), { timeout: 15_000 })
      .toMatch(/^chrome-error:/);
    expect(await chatFrame(page).getByTestId("embed-page").count()).toBe(0);
    await expect.poll(() => refusals.length).toBeGreaterThan(0);
  });

  test("the embed page is axe clean, for a visitor and for a signed-in fan", async () => {
    test.setTimeout(90_000);
    const page = await browser.newPage();
    const found: string[] = [];
    // axe evaluated over the devtools protocol: the page's CSP (script-src 'self') stays on.
    const open = async (label: string, ready: (page: Page) => Promise<void>) => {
      await page.goto(`${server.url}/embed`);
      await ready(page);
      await page.evaluate(AXE_SOURCE);
      found.push(...(await sweep(page, label)));
    };
    await open("embed, visitor", (p) => p.getByRole("button", { name: "Sign Up" }).waitFor());
    await signUpFan(page, server.url, uniqueFan("embed-axe", "Axe Fan"));
    await open("embed, fan", (p) =>
      p.getByRole("textbox", { name: /^Message / }).waitFor({ timeout: 15_000 }),
    );
    expect(found).toEqual([]);
  });
});
