import { expect, test } from "@playwright/test";
import { startFakeOpenAi } from "@twinline/fakes";
import { ADMIN_ENV, FAN_BIRTH_DATE, FAN_PASSWORD, signUpFan, uniqueFan } from "./support/accounts";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { composer, openEmptyChat } from "./support/chat";
import { type RunningServer, startServer } from "./support/server";

// What a fan noticed in the walk-through, each as the fan sees it in Chromium: Google sign-in
// when Google is unreachable, a sign-up error that goes once the fields change, a failed reply
// still marked after a reload, Subscribe now opening the dialog, the theme back to the system's,
// and tables at 360 px that say they scroll.

let server: RunningServer;
let browser: TestBrowser;
let provider: Awaited<ReturnType<typeof startFakeOpenAi>>;

test.beforeAll(async () => {
  // The provider refuses the server's key: every reply fails.
  provider = await startFakeOpenAi();
  server = await startServer({
    env: {
      ...ADMIN_ENV,
      GOOGLE_CLIENT_ID: "e2e-client.apps.googleusercontent.com",
      OPENAI_BASE_URL: provider.baseUrl,
      OPENAI_API_KEY: "sk-not-the-fake-providers-key",
    },
  });
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

test.describe("fan loose ends", () => {
  test("Google unreachable: the spec's message stands where the Google button would be", async () => {
    const page = await browser.newPage();
    // A blocker or a firewall: Google's script never arrives.
    await page.route("https://accounts.google.com/**", (route) => route.abort());
    await page.goto(`${server.url}/auth`);
    await page
      .getByTestId("google-sign-in")
      .getByText("Google login failed. Please try again or use email login")
      .waitFor();
  });

  test("a sign-up error from the server goes away once a field changes", async () => {
    const page = await browser.newPage();
    const fan = uniqueFan("taken");
    await signUpFan(page, server.url, fan);
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${server.url}/auth?tab=signup`);
    const form = page.getByTestId("signup-form");
    await form.getByLabel("Name").fill("Second Fan");
    await form.getByLabel("Email").fill(fan.email);
    await form.getByLabel("Password", { exact: true }).fill(FAN_PASSWORD);
    await form.getByLabel("Date of birth").fill(FAN_BIRTH_DATE);
    await form.getByRole("button", { name: "Create Account" }).click();
    const alert = form.getByRole("alert");
    await alert.waitFor();
    await form.getByLabel("Email").fill(`other-${fan.email}`);
    await alert.waitFor({ state: "detached" });
  });

  test("a reply that failed is still marked after a reload", async () => {
    const page = await browser.newPage();
    await signUpFan(page, server.url, uniqueFan("failed-reply"));
    await openEmptyChat(page, server.url);
    await composer(page).fill("Are you there?");
    await composer(page).press("Enter");
    await page.getByText("Failed to get AI response").first().waitFor({ timeout: 30_000 });
    await page.reload();
    const mine = page.getByTestId("user-message").filter({ hasText: "Are you there?" });
    await mine.getByTestId("reply-failed").waitFor();
    expect(await mine.getByTestId("reply-failed").textContent()).toContain(
      "No reply: sending failed",
    );
  });

  test("Subscribe now on the overview opens the subscription dialog", async () => {
    const page = await browser.newPage();
    await signUpFan(page, server.url, uniqueFan("subscribe"));
    await page.goto(`${server.url}/dashboard`);
    await page
      .getByTestId("card-subscription")
      .getByRole("button", { name: "Subscribe now" })
      .click();
    await page.getByRole("dialog", { name: "Subscribe to a Plan" }).waitFor();
    expect(page.url()).toBe(`${server.url}/dashboard`);
  });

  test("the theme goes light, dark, and back to the system's", async () => {
    const page = await browser.newPage();
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`${server.url}/`);
    const toggle = page.getByTestId("theme-toggle");
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    await expect.poll(isDark).toBe(true);
    await toggle.click(); // the system's is dark: to light
    await expect.poll(isDark).toBe(false);
    await toggle.click(); // to dark
    await expect.poll(() => page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    expect(await toggle.getAttribute("aria-label")).toBe("Use the system theme");
    await toggle.click(); // back to following the system
    await expect.poll(() => page.evaluate(() => localStorage.getItem("theme"))).toBe("system");
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(isDark).toBe(false);
  });

  test("at 360 px a table that does not fit says it scrolls sideways, and scrolls from the keyboard", async () => {
    const page = await browser.newPage(360);
    await signUpFan(page, server.url, uniqueFan("narrow"));
    await page.goto(`${server.url}/dashboard/transactions`);
    const credits = page.getByTestId("credits-transactions");
    await credits.getByText("No credit purchases yet.").waitFor();
    await credits.getByTestId("table-scroll-hint").waitFor();
    const region = credits.getByRole("region", { name: "Credit Purchases" });
    await region.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  });
});
