import { expect, test } from "@playwright/test";
import type { Page } from "playwright-core";
import { signInAdmin, signUpFan, uniqueFan } from "./support/accounts";
import { sweep } from "./support/axe";
import type { TestBrowser } from "./support/browser";
import { type CallSetup, hangUp, startCall, startCallSetup } from "./support/call";
import { composer, openEmptyChat } from "./support/chat";
import type { RunningServer } from "./support/server";

// The crisis protocol in Chromium against the built app (issue 25, items 2 and 3): a self-harm
// sentence typed in the chat, and one spoken in a call, get the product's caring message and the
// crisis lines pinned in the chat; /safety describes the protocol; the admin finds the
// conversation under the Flagged filter, each flagged message marked with its category. The
// moderation provider is the local OpenAI fake (the app's real SDK code calls it). Every screen
// goes through axe-core in both themes.

const TYPED = "I want to end my life tonight";
const SPOKEN = "I don't want to be alive anymore.";
const INTRO = "This is an automatic message from the app, not from the AI persona.";
const SLOW = 240_000;

let setup: CallSetup;
let server: RunningServer;
let browser: TestBrowser;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(SLOW);
  setup = await startCallSetup({
    provider: {
      transcription: SPOKEN,
      reply: ["I am the persona's ordinary reply."],
      moderationFlags: {
        [TYPED]: ["self-harm", "self-harm/intent"],
        [SPOKEN]: ["self-harm", "self-harm/intent"],
      },
    },
    // axe-core goes in as a script tag; the app's CSP (script-src 'self') would refuse it.
    contextOptions: { bypassCSP: true },
    healthTimeoutMs: 180_000,
  });
  ({ server, browser } = setup);
});

test.afterEach(async () => {
  await browser?.closePages();
});

test.afterAll(() => setup?.close());

async function expectNoViolations(page: Page, label: string) {
  await page.waitForLoadState("networkidle").catch(() => {});
  expect(await sweep(page, label)).toEqual([]);
}

const pinned = (page: Page) => page.getByTestId("crisis-resources");

test.describe("the crisis protocol", () => {
  test("a typed self-harm sentence gets the caring message and the crisis lines pinned, free", async () => {
    test.setTimeout(SLOW);
    const page = await browser.newPage();
    await signUpFan(page, server.url, uniqueFan("crisis-typed"));
    await openEmptyChat(page, server.url);
    await page.getByText("5 free messages left today").waitFor();
    expect(await pinned(page).count()).toBe(0);

    await composer(page).fill(TYPED);
    await composer(page).press("Enter");
    const card = page.getByTestId("crisis-message");
    await card.getByText(INTRO, { exact: false }).waitFor({ timeout: 30_000 });
    expect(await card.textContent()).toContain("988 Suicide & Crisis Lifeline");
    expect(await page.getByTestId("ai-message").count()).toBe(0);
    await pinned(page).getByText("Samaritans", { exact: true }).waitFor();
    expect(
      await pinned(page).getByRole("link", { name: "Call or text 988" }).getAttribute("href"),
    ).toBe("tel:988");
    // No free message used.
    await page.getByText("5 free messages left today").waitFor();
    await expectNoViolations(page, "/dashboard/chat (crisis)");

    // Folded, not removed; still pinned after a reload in the same visit.
    await pinned(page).getByRole("button", { name: "Hide" }).click();
    expect(await pinned(page).getByText("Samaritans", { exact: true }).isVisible()).toBe(false);
    await page.reload();
    await pinned(page).getByText("Samaritans", { exact: true }).waitFor();
  });

  test("a spoken self-harm sentence is answered by the caring message in the call, then pinned in the chat", async () => {
    test.setTimeout(SLOW);
    const page = await browser.newPage();
    await signUpFan(page, server.url, uniqueFan("crisis-spoken"));
    await startCall(page, server.url);
    const captions = page.getByRole("log");
    await captions.getByTestId("call-transcript").first().getByText(SPOKEN).waitFor({
      timeout: 45_000,
    });
    await captions
      .getByTestId("call-response")
      .first()
      .getByText(INTRO, { exact: false })
      .waitFor({ timeout: 30_000 });
    expect(await captions.getByText("ordinary reply").count()).toBe(0);
    expect(await sweep(page, "/dashboard/call (live call with the caring message)")).toEqual([]);
    const report = await hangUp(page);
    expect(report.ok()).toBe(true);

    await page.goto(`${server.url}/dashboard/chat`);
    await pinned(page).getByText("988 Suicide & Crisis Lifeline").waitFor({ timeout: 20_000 });
    await expectNoViolations(page, "/dashboard/chat (pinned after a call's crisis)");
  });

  test("/safety describes the protocol and is linked from the footer and the sign-up form", async () => {
    test.setTimeout(SLOW);
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    const footerLink = page.getByRole("contentinfo").getByRole("link", { name: "Safety" });
    await footerLink.click();
    await page.waitForURL(`${server.url}/safety`);
    await page.getByRole("heading", { name: "Safety", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "When the check fires" }).waitFor();
    expect(await page.getByRole("main").textContent()).toContain("no credits");
    await expectNoViolations(page, "/safety");

    await page.goto(`${server.url}/auth?tab=signup`);
    const signupLink = page.getByTestId("signup-safety-link");
    await signupLink.waitFor();
    expect(await signupLink.getAttribute("href")).toBe("/safety");
  });

  test("the admin finds flagged conversations under the Flagged filter, each flag with its category", async () => {
    test.setTimeout(SLOW);
    // A flagged conversation of its own, so the filter has one to find whatever ran before.
    const fanPage = await browser.newPage();
    await signUpFan(fanPage, server.url, uniqueFan("crisis-logged", "Flagged Fan"));
    await openEmptyChat(fanPage, server.url);
    await composer(fanPage).fill(TYPED);
    await composer(fanPage).press("Enter");
    await fanPage.getByTestId("crisis-message").waitFor({ timeout: 30_000 });

    const page = await browser.newPage();
    await signInAdmin(page, server.url, "/admin/chat-logs");
    await page.getByRole("heading", { name: "Chat Logs", level: 1 }).waitFor();
    await page.getByLabel("Flags").selectOption("flagged");
    await page.waitForURL(/flagged=flagged/);
    const row = page.getByRole("row").filter({ hasText: "Flagged Fan" });
    await row.waitFor();
    await row.getByText("Flagged", { exact: true }).waitFor();
    await expectNoViolations(page, "/admin/chat-logs?flagged=flagged");

    await row.getByRole("button", { name: /Flagged Fan/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("message-flag").getByText("Flagged: self-harm/intent").waitFor();
    await dialog.getByText("Automatic message", { exact: false }).first().waitFor();
    await expectNoViolations(page, "/admin/chat-logs (flagged conversation)");
    await page.keyboard.press("Escape");

    await page.goto(`${server.url}/admin/UserAnalytics`);
    const referrals = page.getByTestId("crisis-referrals");
    await referrals.getByText(/Crisis referrals, last 30 days/).waitFor();
    await expect
      .poll(async () => Number((await referrals.locator("p").first().textContent()) ?? "0"))
      .toBeGreaterThanOrEqual(2);
    await expectNoViolations(page, "/admin/UserAnalytics (crisis referrals)");

    await page.goto(`${server.url}/admin/settings`);
    await page.getByRole("heading", { name: "Crisis Resources" }).waitFor();
    expect(await page.getByTestId("crisis-resource-row").count()).toBe(3);
    await expectNoViolations(page, "/admin/settings (crisis resources)");
  });
});
