import { startFakeOpenAi } from "@twinline/fakes";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// Text chat in Chromium against the built app: the offline responder's reply (no provider key),
// the daily free-message limit, older messages loading on scrolling up, and a reply streamed
// from an OpenAI-compatible provider once the admin saves its key in the admin area.

const ADMIN_EMAIL = "admin@twinline.test";
const ADMIN_PASSWORD = "admin-pass-123";
const LIMIT_BUBBLE =
  "You've reached your daily message limit. Subscribe to our service for unlimited messaging!";

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
let browser: Browser;
let provider: Awaited<ReturnType<typeof startFakeOpenAi>>;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  provider = await startFakeOpenAi({ validKey: "any", reply: PROVIDER_REPLY, gapMs: 150 });
  // The base URL is set, the key is not: offline until the admin saves a key.
  server = await startServer({
    env: { ADMIN_EMAIL, ADMIN_PASSWORD, OPENAI_BASE_URL: provider.baseUrl },
  });
  browser = await launchBrowser();
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
});

async function newPage(width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  contexts.push(context);
  return context.newPage();
}

/** A fresh CSRF token for API calls made from the test itself. */
async function csrf(page: Page): Promise<string> {
  const answer = await page.context().request.get(`${server.url}/api/csrf-token`);
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { csrfToken: string }).csrfToken;
}

/** Signs a user up through the API and keeps them signed in in the page's context. */
async function signUpUser(page: Page, label: string): Promise<string> {
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  const signup = await page.context().request.post(`${server.url}/api/auth/signup`, {
    headers: { "csrf-token": await csrf(page) },
    data: {
      name: `${label} ${stamp}`,
      email: `${label}-${stamp}@example.com`,
      password: "user-pass-123",
    },
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
  return body.token;
}

const composer = (page: Page) => page.getByRole("textbox", { name: /^Message / });

describe("text chat", () => {
  it("a user sends a message and the offline responder answers in the persona's name", async () => {
    const page = await newPage();
    await signUpUser(page, "newcomer");
    await page.goto(`${server.url}/dashboard/chat`);
    await page.getByText(/Say hello to/).waitFor();
    await page.getByText(/free messages left today/).waitFor();

    const answer = page.waitForResponse((r) => r.url().endsWith("/api/chat/message"));
    await composer(page).fill("Hello! Who are you?");
    await composer(page).press("Enter");
    expect(await composer(page).inputValue()).toBe("");
    await page.getByTestId("user-message").filter({ hasText: "Hello! Who are you?" }).waitFor();
    expect((await answer).headers()["content-type"]).toContain("text/event-stream");

    const reply = page.getByTestId("ai-message").last();
    await expect.poll(() => reply.getAttribute("data-state"), { timeout: 30_000 }).toBeNull();
    expect(await reply.textContent()).toContain("(Offline mode) Hi, I'm AI Celebrity Assistant.");
    await page.getByText(/4 free messages left today/).waitFor();
  });

  it("a free user reaches the daily limit and sees the bubble and the toast", async () => {
    const page = await newPage(360);
    await signUpUser(page, "limited");
    await page.goto(`${server.url}/dashboard/chat`);
    await page.getByText(/Say hello to/).waitFor();
    for (let i = 1; i <= 5; i++) {
      await composer(page).fill(`Message number ${i}`);
      await composer(page).press("Enter");
      await page
        .getByTestId("user-message")
        .filter({ hasText: `Message number ${i}` })
        .waitFor();
      await expect.poll(() => page.getByTestId("ai-message").count(), { timeout: 30_000 }).toBe(i);
      await expect
        .poll(() => page.getByTestId("ai-message").last().getAttribute("data-state"))
        .toBeNull();
    }
    await page.getByText("0 free messages left today").waitFor();
    await composer(page).fill("One too many");
    await composer(page).press("Enter");
    await page.getByText(LIMIT_BUBBLE).waitFor();
    await page.getByText("Message Limit Reached").waitFor();
    await page.getByText(/all 5 free messages/).waitFor();
    // Nothing typed is lost.
    expect(await composer(page).inputValue()).toBe("One too many");
  });

  it("older messages load on scrolling up, without moving what is on screen", async () => {
    // Raise the free limit so one user can hold a long conversation.
    const admin = await newPage();
    const login = await admin.context().request.post(`${server.url}/api/admin/login`, {
      headers: { "csrf-token": await csrf(admin) },
      data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(login.status(), await login.text()).toBeLessThan(300);
    const { token: adminToken } = (await login.json()) as { token: string };
    const current = await admin.context().request.get(`${server.url}/api/admin/settings`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(current.ok(), await current.text()).toBe(true);
    const { providers: _providers, ...settings } = (
      (await current.json()) as {
        data: Record<string, unknown>;
      }
    ).data;
    const put = await admin.context().request.put(`${server.url}/api/settings`, {
      headers: { authorization: `Bearer ${adminToken}`, "csrf-token": await csrf(admin) },
      data: { ...settings, freeMessagesPerDay: 100 },
    });
    expect(put.status(), await put.text()).toBeLessThan(300);

    const page = await newPage();
    const token = await signUpUser(page, "talker");
    let conversationId: string | undefined;
    for (let i = 1; i <= 25; i++) {
      const sent = await page.context().request.post(`${server.url}/api/chat/message`, {
        headers: {
          authorization: `Bearer ${token}`,
          "csrf-token": await csrf(page),
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
    // 50 messages: the newest 20 first, scrolled to the bottom.
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
    await expect.poll(() => page.getByRole("log").getByRole("listitem").count()).toBe(50);
  });
  it("streams the reply of a provider the admin configured, as it arrives", async () => {
    // The admin saves an OpenAI key in the admin area; the provider switches on without a restart.
    const admin = await newPage();
    await admin.goto(`${server.url}/admin/login`);
    await admin.getByLabel("Email").fill(ADMIN_EMAIL);
    await admin.getByLabel("Password", { exact: true }).fill(ADMIN_PASSWORD);
    await admin.getByRole("button", { name: "Sign In" }).click();
    await admin.waitForURL(/\/admin\/dashboard/);
    await admin.goto(`${server.url}/admin/api-keys`);
    await admin.getByLabel("OpenAI API Key", { exact: true }).fill("sk-e2e-configured-key");
    await admin.getByRole("button", { name: "Save Configuration" }).click();
    await expect
      .poll(() => admin.getByTestId("provider-mode-llm").textContent(), { timeout: 15_000 })
      .not.toContain("Offline");

    const page = await newPage();
    await signUpUser(page, "streamer");
    await page.goto(`${server.url}/dashboard/chat`);
    await page.getByText(/Say hello to/).waitFor();
    await page.getByText(/free messages left today/).waitFor();

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

    const answer = page.waitForResponse((r) => r.url().endsWith("/api/chat/message"));
    await composer(page).fill("Hello! Who are you?");
    await composer(page).press("Enter");
    expect(await composer(page).inputValue()).toBe("");
    await page.getByTestId("user-message").filter({ hasText: "Hello! Who are you?" }).waitFor();
    const response = await answer;
    expect(response.headers()["content-type"]).toContain("text/event-stream");

    const reply = page.getByTestId("ai-message").last();
    await expect.poll(() => reply.getAttribute("data-state"), { timeout: 30_000 }).toBeNull();
    expect(await reply.textContent()).toContain(PROVIDER_REPLY.join("").trim());
    const states = await page.evaluate(
      () => (window as unknown as { __replyStates: string[] }).__replyStates,
    );
    // The reply was on screen, growing, before it was complete.
    expect(states.some((s) => s.startsWith("streaming:"))).toBe(true);
  });
});
