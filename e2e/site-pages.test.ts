import { expect, test } from "@playwright/test";
import type { Page } from "playwright-core";
import {
  ADMIN_ENV,
  changeSettingsAsAdmin,
  signInAdmin,
  signUpFan,
  uniqueFan,
} from "./support/accounts";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// The site's own pages: the footer's Legal and Company links lead to real pages whose built-in
// text names the persona and the operator; the admin rewrites one in markdown; HTML in it is
// shown as text, never run.

let server: RunningServer;
let browser: TestBrowser;
let visitor: Page;

const PERSONA = "Nova Pages";
const SITE = "Velvet Lounge";

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  server = await startServer({ env: ADMIN_ENV });
  browser = await launchBrowser();
  visitor = await browser.newPage();
  await visitor.goto(`${server.url}/`);
  await changeSettingsAsAdmin(visitor, server.url, {
    siteName: SITE,
    aiProfile: {
      name: PERSONA,
      aiProfileImage: "",
      enableVoiceConversation: true,
      promotionalMessage: "",
    },
  });
});

test.afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test.describe("legal and company pages", () => {
  test("every footer link opens its page, whose built-in text names the persona and the operator", async () => {
    const links = [
      ["Terms of Service", "/terms"],
      ["Privacy Policy", "/privacy"],
      ["Refund Policy", "/refunds"],
      ["About Us", "/about"],
      ["Contact", "/contact"],
      ["FAQ", "/faq"],
    ] as const;
    for (const [name, path] of links) {
      await visitor.goto(`${server.url}/`);
      await visitor.locator("footer").getByRole("link", { name, exact: true }).click();
      await visitor.waitForURL(`${server.url}${path}`);
      await visitor.getByRole("heading", { level: 1, name }).waitFor();
      const content = visitor.getByTestId("site-page-content");
      await content.waitFor();
      expect(await content.textContent(), path).not.toContain("{{");
    }
    await visitor.goto(`${server.url}/about`);
    const about = (await visitor.getByTestId("site-page-content").textContent()) ?? "";
    expect(about).toContain(PERSONA);
    expect(about).toContain(SITE);
    expect(await visitor.locator("footer").textContent()).toContain(`© 2025 ${SITE}`);
  });

  test("the checkout links the terms and the refund policy", async () => {
    const fan = await browser.newPage();
    await signUpFan(fan, server.url, uniqueFan("pages"));
    await fan.goto(`${server.url}/dashboard/credits`);
    await fan.getByRole("link", { name: "Refund Policy" }).first().waitFor();
    expect(
      await fan.getByRole("link", { name: "Terms of Service" }).first().getAttribute("href"),
    ).toBe("/terms");
    await fan.getByRole("button", { name: /Subscribe Now|Manage Subscription/ }).click();
    const dialog = fan.getByRole("dialog");
    expect(await dialog.getByRole("link", { name: "Refund Policy" }).getAttribute("href")).toBe(
      "/refunds",
    );
  });

  test("the admin rewrites the FAQ in markdown; a script or an event handler in it stays inert text", async () => {
    const admin = await browser.newPage();
    await signInAdmin(admin, server.url, "/admin/Settings");
    const pages = admin.getByRole("region", { name: "Pages" });
    await pages.getByLabel("Page").selectOption("faq");
    const editor = pages.getByLabel("FAQ (markdown)");
    expect(await editor.inputValue()).toContain("{{persona}}");
    await editor.fill(
      [
        "## Can I talk to {{persona}} at night?",
        "",
        "Yes, **any time**.",
        "",
        '<script>window.__pwned = "script"</script>',
        '<img src="x" onerror="window.__pwned = \'img\'">',
        "",
        "[Click me](javascript:window.__pwned='link')",
      ].join("\n"),
    );
    await pages.getByRole("button", { name: "Save Page" }).click();
    await admin.getByText("Page saved").first().waitFor();

    await visitor.goto(`${server.url}/faq`);
    const content = visitor.getByTestId("site-page-content");
    await content.getByRole("heading", { name: `Can I talk to ${PERSONA} at night?` }).waitFor();
    expect(await content.locator("strong").textContent()).toBe("any time");
    expect(await content.locator("script, img, iframe").count()).toBe(0);
    const link = content.getByText("Click me");
    expect(await link.getAttribute("href")).not.toMatch(/javascript/i);
    await link.click().catch(() => {});
    expect(await visitor.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();

    // Saved empty, the built-in text comes back.
    await editor.fill("");
    await pages.getByRole("button", { name: "Save Page" }).click();
    await expect.poll(() => editor.inputValue()).toContain("{{persona}}");
    await visitor.goto(`${server.url}/faq`);
    await visitor.getByText(`${PERSONA} is an AI`).waitFor();
  });
});
