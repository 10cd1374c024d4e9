import { expect, test } from "@playwright/test";
import type { Page } from "playwright-core";
import { FAN_BIRTH_DATE, FAN_PASSWORD } from "./support/accounts";
import { sweep } from "./support/axe";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { composer } from "./support/chat";
import { type RunningServer, startServer } from "./support/server";

// Try before sign-up (issue 27 item 1; docs/decisions/0084-anonymous-trial.md): a visitor chats
// on the landing page without an account, the sign-up modal opens when the allowance is used,
// and after sign-up the conversation is the new account's.

let server: RunningServer;
let browser: TestBrowser;
let page: Page;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer();
  // bypassCSP: axe is injected as a script tag (support/axe.ts).
  browser = await launchBrowser({ contextOptions: { bypassCSP: true } });
  page = await browser.newPage();
});

test.afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const MESSAGES = ["Hello from the landing page", "What do you enjoy?", "Tell me one more thing"];

test.describe("the anonymous trial on the landing page", () => {
  test("chats three messages, opens the sign-up modal, and keeps the conversation after sign-up", async () => {
    const chunks: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") chunks.push(new URL(request.url()).pathname);
    });
    await page.goto(`${server.url}/`);
    const start = page.getByTestId("trial-start");
    await start.waitFor();
    // The trial chat is not part of the first load: it comes with the first interaction.
    expect(chunks.some((path) => path.includes("trial-chat"))).toBe(false);
    await start.click();
    const trial = page.getByTestId("trial-chat");
    await trial.waitFor();
    await expect.poll(() => page.getByTestId("trial-remaining").textContent()).toContain("3 free");

    for (const [i, text] of MESSAGES.entries()) {
      await composer(page).fill(text);
      await composer(page).press("Enter");
      await trial.getByTestId("user-message").filter({ hasText: text }).waitFor();
      await expect
        .poll(() => trial.getByTestId("ai-message").count(), { timeout: 30_000 })
        .toBe(i + 1);
      if (i === 0) {
        // The AI notice applies to visitors as to members.
        expect(await trial.getByTestId("product-notice").count()).toBe(1);
        expect(await sweep(page, "trial chat")).toEqual([]);
      }
    }

    // The allowance is used: the sign-up modal opens.
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Create Account" }).waitFor();
    expect(await sweep(page, "sign-up modal after the trial")).toEqual([]);
    await dialog.getByLabel("Name").fill("Trial Visitor");
    await dialog.getByLabel("Email").fill("trial-visitor@example.com");
    await dialog.getByLabel("Password", { exact: true }).fill(FAN_PASSWORD);
    await dialog.getByLabel("Date of birth").fill(FAN_BIRTH_DATE);
    await dialog.getByRole("button", { name: "Create Account" }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/dashboard");

    // The conversation is the account's now, in the chat.
    await page.goto(`${server.url}/dashboard/chat`);
    for (const text of MESSAGES) {
      await page.getByTestId("user-message").filter({ hasText: text }).waitFor();
    }
    expect(await page.getByTestId("ai-message").count()).toBe(3);
  });
});
