import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { FAN_BIRTH_DATE, FAN_PASSWORD, signUpFan, uniqueFan } from "./support/accounts";
import { sweep } from "./support/axe";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { type RunningServer, startServer } from "./support/server";

// Issue 26 in Chromium against the built app: "Download my data" on the profile (the ZIP is
// opened and read), then "Delete account" (password and DELETE), and the same e-mail signs up
// again as a new account; axe on the profile's sections and on the open deletion dialog.

const SLOW = 120_000;
let server: RunningServer;
let browser: TestBrowser;

test.beforeAll(async () => {
  test.setTimeout(SLOW + 30_000);
  server = await startServer({ healthTimeoutMs: SLOW });
  // axe-core goes in as a script tag; the app's CSP (script-src 'self') would refuse it.
  browser = await launchBrowser({ contextOptions: { bypassCSP: true, acceptDownloads: true } });
});

test.afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test.afterEach(async () => {
  await browser?.closePages();
});

test.describe("my data and my account", () => {
  test("downloads my data as a ZIP, deletes the account, and the e-mail signs up again", async () => {
    test.setTimeout(180_000);
    const page = await browser.newPage();
    const fan = uniqueFan("privacy", "Privacy Fan");
    await signUpFan(page, server.url, fan);

    // Something of mine to find in the export.
    await page.goto(`${server.url}/dashboard/chat`);
    const box = page.getByRole("textbox").first();
    await box.fill("I live in Quillhaven and I love kites");
    await box.press("Enter");
    await page.getByText("I live in Quillhaven and I love kites").first().waitFor();

    await page.goto(`${server.url}/dashboard/profile`);
    const exportSection = page.getByTestId("data-export-section");
    await exportSection.waitFor();
    await exportSection.getByText("You have not asked for a copy of your data yet.").waitFor();
    expect(await sweep(page, "profile")).toEqual([]);

    await exportSection.getByRole("button", { name: "Download my data" }).click();
    const save = exportSection.getByRole("button", { name: "Download ZIP" });
    await save.waitFor({ timeout: 30_000 });
    await exportSection.getByText(/Your data is ready to download until/).waitFor();
    const download = page.waitForEvent("download");
    await save.click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^twinline-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const entries = unzipSync(new Uint8Array(await readFile(await file.path())));
    expect(Object.keys(entries)).toEqual(
      expect.arrayContaining(["README.md", "profile.json", "messages.json", "calls.json"]),
    );
    const profile = JSON.parse(strFromU8(entries["profile.json"] ?? new Uint8Array()));
    expect(profile).toMatchObject({ email: fan.email, name: fan.name });
    expect(strFromU8(entries["messages.json"] ?? new Uint8Array())).toContain("Quillhaven");

    // Delete the account: the dialog asks for the password and the word DELETE.
    await page.getByRole("button", { name: "Delete account" }).click();
    const dialog = page.getByTestId("delete-account-dialog");
    await dialog.waitFor();
    const confirm = dialog.getByRole("button", { name: "Delete my account" });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Your password", { exact: true }).fill(FAN_PASSWORD);
    await dialog.getByLabel("Type DELETE to confirm").fill("delete");
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Type DELETE to confirm").fill("DELETE");
    expect(await sweep(page, "delete account dialog")).toEqual([]);
    await confirm.click();
    await page.getByText("Your account has been deleted.").waitFor();
    await page.waitForURL(`${server.url}/`);
    expect(await page.evaluate(() => localStorage.getItem("userToken"))).toBeNull();

    // The same e-mail signs up again through the form, as a new account.
    await page.getByRole("banner").getByRole("button", { name: "Sign Up" }).click();
    const signup = page.getByRole("dialog");
    await signup.getByLabel("Name").fill("Second Life");
    await signup.getByLabel("Email").fill(fan.email);
    await signup.getByLabel("Password", { exact: true }).fill(FAN_PASSWORD);
    await signup.getByLabel("Date of birth").fill(FAN_BIRTH_DATE);
    await signup.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL(/\/dashboard/);
    await page.goto(`${server.url}/dashboard/chat`);
    await page.getByRole("textbox").first().waitFor();
    expect(await page.getByText("Quillhaven").count()).toBe(0);
  });
});
