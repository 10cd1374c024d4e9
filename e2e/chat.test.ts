import { expect, test } from "@playwright/test";
import { startFakeOpenAi } from "@twinline/fakes";
import type { Page } from "playwright-core";
import {
  ADMIN_ENV,
  changeSettingsAsAdmin,
  csrfToken,
  signInAdmin,
  signUpFan,
  uniqueFan,
} from "./support/accounts";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { composer, DAILY_LIMIT_BUBBLE, openEmptyChat, sendAndAwaitReply } from "./support/chat";
import { type RunningServer, startServer } from "./support/server";

// Text chat in Chromium against the built app: the offline responder's reply (no provider key),
// the daily free-message limit, older messages loading on scrolling up, and a reply streamed
// from an OpenAI-compatible provider once the admin saves its key in the admin area.

const PROVIDER_REPLY = [
  "Hello ",
  "from ",
  "the ",
  "configured ",
  "provider, ",
  "streamed ",
  "live.",
];

let server: RunningServer;
let browser: TestBrowser;
let provider: Awaited<ReturnType<typeof startFakeOpenAi>>;

test.beforeAll(async () => {
  provider = await startFakeOpenAi({ validKey: "any", reply: PROVIDER_REPLY, gapMs: 150 });
  // The base URL is set, the key is not: offline until the admin saves a key.
  server = await startServer({ env: { ...ADMIN_ENV, OPENAI_BASE_URL: provider.baseUrl } });
  browser = await launchBrowser();
});

test.afterEach(async () => {
  await browser?.closePages();
});

test.afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
});

/** A new fan with the chat open on its empty state and the day's free-message count shown. */
async function fanInEmptyChat(label: string): Promise<Page> {
  const page = await browser.newPage();
  await signUpFan(page, server.url, uniqueFan(label));
  await openEmptyChat(page, server.url);
  await page.getByText(/free messages left today/).waitFor();
  return page;
}

/**
 * Asks the persona who it is: the composer empties at once, the message shows, the answer comes
 * as a stream. Returns the reply once it is complete.
 */
async function askWhoItIs(page: Page) {
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/chat/message"));
  await composer(page).fill("Hello! Who are you?");
  await composer(page).press("Enter");
  expect(await composer(page).inputValue()).toBe("");
  await page.getByTestId("user-message").filter({ hasText: "Hello! Who are you?" }).waitFor();
  expect((await answer).headers()["content-type"]).toContain("text/event-stream");
  const reply = page.getByTestId("ai-message").last();
  await expect.poll(() => reply.getAttribute("data-state"), { timeout: 30_000 }).toBeNull();
  return reply;
}

test.describe("text chat", () => {
  test("a user sends a message and the offline responder answers in the persona's name", async () => {
    const page = await fanInEmptyChat("newcomer");
    const reply = await askWhoItIs(page);
    expect(await reply.textContent()).toContain("(Offline mode) Hi, I'm AI Celebrity Assistant.");
    await page.getByText(/4 free messages left today/).waitFor();
  });

  test("a free user reaches the daily limit and sees the bubble and the toast", async () => {
    const page = await browser.newPage(360);
    await signUpFan(page, server.url, uniqueFan("limited"));
    await openEmptyChat(page, server.url);
    for (let i = 1; i <= 5; i++) {
      await sendAndAwaitReply(page, `Message number ${i}`, i);
      await expect
        .poll(() => page.getByTestId("ai-message").last().getAttribute("data-state"))
        .toBeNull();
    }
    await page.getByText("0 free messages left today").waitFor();
    await composer(page).fill("One too many");
    await composer(page).press("Enter");
    await page.getByText(DAILY_LIMIT_BUBBLE).waitFor();
    await page.getByText("Message Limit Reached").waitFor();
    await page.getByText(/all 5 free messages/).waitFor();
    // Nothing typed is lost.
    expect(await composer(page).inputValue()).toBe("One too many");
  });

  test("older messages load on scrolling up, without moving what is on screen", async () => {
    // Raise the free limit so one user can hold a long conversation.
    const admin = await browser.newPage();
    await changeSettingsAsAdmin(admin, server.url, { freeMessagesPerDay: 100 });

    const page = await browser.newPage();
    const token = await signUpFan(page, server.url, uniqueFan("talker"));
    let conversationId: string | undefined;
    for (let i = 1; i <= 25; i++) {
      const sent = await page.context().request.post(`${server.url}/api/chat/message`, {
        headers: {
          authorization: `Bearer ${token}`,
          "csrf-token": await csrfToken(page, server.url),
          accept: "application/json",
        },
        data: conversationId ? { message: `Seed ${i}`, conversationId } : { message: `Seed ${i}` },
      });
      expect(sent.status(), await sent.text()).toBe(200);
      conversationId = ((await sent.json()) as { data: { conversationId: string } }).data
        .conversationId;
    }

    await page.goto(`${server.url}/dashboard/chat`);
    const list = page.getByTestId("chat-scroll");
    // 51 messages: the newest 20 first, scrolled to the bottom.
    await page.getByText("Seed 25", { exact: true }).waitFor();
    await expect.poll(() => page.getByRole("log").getByRole("listitem").count()).toBe(20);
    expect(await page.getByText("Seed 1", { exact: true }).count()).toBe(0);

    // The first message on screen stays where it is while older ones go in above it.
    // Scrolled near the top, where it is measured before the older page arrives (the scroll event
    // that asks for it fires after this evaluation).
    const firstShown = page.getByRole("log").getByRole("listitem").first();
    const marker = (await firstShown.textContent()) ?? "";
    const before = {
      y: await list.evaluate((el) => {
        el.scrollTop = 10;
        return el.querySelector("li")?.getBoundingClientRect().top ?? Number.NaN;
      }),
    };
    await expect.poll(() => page.getByRole("log").getByRole("listitem").count()).toBe(40);
    const same = page.getByRole("log").getByRole("listitem").filter({ hasText: marker }).first();
    const after = await same.boundingBox();
    expect(Math.abs((after?.y ?? 0) - before.y)).toBeLessThan(40);

    await list.evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.getByText("Seed 1", { exact: true }).waitFor();
    // 25 messages, 25 replies and the AI notice the conversation began with.
    await expect.poll(() => page.getByRole("log").getByRole("listitem").count()).toBe(51);
  });
  test("streams the reply of a provider the admin configured, as it arrives", async () => {
    // The admin saves an OpenAI key in the admin area; the provider switches on without a restart.
    const admin = await browser.newPage();
    await signInAdmin(admin, server.url);
    await admin.goto(`${server.url}/admin/api-keys`);
    await admin.getByLabel("OpenAI API Key", { exact: true }).fill("sk-e2e-configured-key");
    await admin.getByRole("button", { name: "Save Configuration" }).click();
    await expect
      .poll(() => admin.getByTestId("provider-mode-llm").textContent(), { timeout: 15_000 })
      .not.toContain("Offline");

    const page = await fanInEmptyChat("streamer");

    // Record every state the reply passes through while it arrives.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __replyStates: string[] }).__replyStates = seen;
      new MutationObserver(() => {
        const replies = document.querySelectorAll('[data-testid="ai-message"]');
        const last = replies[replies.length - 1];
        if (last) seen.push(`${last.getAttribute("data-state") ?? "final"}:${last.textContent}`);
      }).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });

    const reply = await askWhoItIs(page);
    expect(await reply.textContent()).toContain(PROVIDER_REPLY.join("").trim());
    const states = await page.evaluate(
      () => (window as unknown as { __replyStates: string[] }).__replyStates,
    );
    // The reply was on screen, growing, before it was complete.
    expect(states.some((s) => s.startsWith("streaming:"))).toBe(true);
  });
});
