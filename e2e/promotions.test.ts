import { expect, test } from "@playwright/test";
import type { Page } from "playwright-core";
import { adminApiToken, signInAdmin, signUpFan, uniqueFan } from "./support/accounts";
import { type AdminAndFan, startAdminAndFan } from "./support/admin-and-fan";
import { sweep } from "./support/axe";
import { agreeToDelivery, createAsAdmin, creditBalance, payInSandbox } from "./support/billing";
import type { RunningServer } from "./support/server";

// Issue 27 item 4 in Chromium against the built app with no keys: the admin creates a promotion
// code on its screen; a fan applies it at a package's checkout, sees the total lowered before
// paying, pays the lowered amount on the sandbox page, gets the package's credits and sees the
// discount in the transactions. The tests run in order.

const stamp = `${Date.now()}`;
const PACKAGE = `Promo Pack ${stamp}`;
const CODE = `SAVE${stamp.slice(-6)}`;

let setup: AdminAndFan;
let server: RunningServer;
let admin: Page;
let fan: Page;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // axe goes in as a script tag: the app's CSP would refuse it.
  setup = await startAdminAndFan({
    fanWidth: 360,
    contextOptions: { bypassCSP: true },
    healthTimeoutMs: 120_000,
  });
  ({ server, admin, fan } = setup);
  const token = await adminApiToken(admin, server.url);
  await createAsAdmin(admin, server.url, token, "/api/credit-packages", {
    name: PACKAGE,
    credits: 200,
    price: 20,
  });
});

test.afterAll(() => setup?.close());

test.describe("promotion codes", () => {
  test("the admin creates a 25% code on the Promotion Codes screen", async () => {
    await signInAdmin(admin, server.url);
    await admin.getByRole("link", { name: "Promotion Codes" }).click();
    await admin.waitForURL(/\/admin\/promotion-codes$/);
    await admin.getByRole("button", { name: "Add Promotion Code" }).click();
    const dialog = admin.getByRole("dialog", { name: "Add Promotion Code" });
    await dialog.getByLabel("Code").fill(CODE.toLowerCase());
    await dialog.getByLabel("Percent off").fill("25");
    await dialog.getByLabel("Applies to").selectOption("packages");
    await dialog.getByLabel("Maximum redemptions").fill("10");
    await dialog.getByRole("button", { name: "Create Code" }).click();
    await admin.getByText("Promotion code created").waitFor();
    const row = admin.getByRole("row").filter({ hasText: CODE });
    await row.waitFor();
    const text = (await row.textContent()) ?? "";
    expect(text).toContain("25%");
    expect(text).toContain("0 / 10");
    expect(text).toContain("Active");
    expect(await sweep(admin, "promotion codes screen")).toEqual([]);
  });

  test("a fan's checkout total is lowered by the code, and the lowered amount is what is paid", async () => {
    await signUpFan(fan, server.url, uniqueFan("promo"));
    await fan.goto(`${server.url}/dashboard/credits`);
    await fan.getByTestId("credit-balance").waitFor();
    const before = await creditBalance(fan);
    const card = fan.getByTestId("credit-package").filter({ hasText: PACKAGE });
    await card.getByRole("button", { name: `Buy ${PACKAGE}` }).click();
    const dialog = fan.getByTestId("package-consent-dialog");

    // A wrong code says why, under the field.
    await dialog.getByLabel("Promotion code").fill("NOSUCHCODE");
    await dialog.getByRole("button", { name: "Apply" }).click();
    await dialog.getByRole("alert").getByText("This promotion code does not exist").waitFor();

    await dialog.getByLabel("Promotion code").fill(CODE);
    await dialog.getByRole("button", { name: "Apply" }).click();
    const quote = dialog.getByTestId("promotion-quote");
    await quote.waitFor();
    // $20.00 less 25%: $15.00.
    expect(await quote.textContent()).toContain("-$5.00");
    expect(await quote.textContent()).toContain("$15.00");
    expect(await dialog.textContent()).toContain("200 credits for $15.00");
    expect(await sweep(fan, "package dialog with a code")).toEqual([]);
    await agreeToDelivery(fan);

    await fan.waitForURL(/\/checkout\/sandbox\//);
    expect(await fan.getByTestId("sandbox-amount").textContent()).toBe("$15.00");
    expect(await fan.getByTestId("sandbox-discount").textContent()).toContain("-$5.00");
    await payInSandbox(fan);
    await fan.waitForURL(/\/dashboard\/credits/);
    await expect.poll(async () => creditBalance(fan), { timeout: 30_000 }).toBe(before + 200);

    await fan.goto(`${server.url}/dashboard/transactions`);
    const discount = fan.getByTestId("payment-discount").first();
    await discount.waitFor();
    expect(await discount.textContent()).toContain(`-$5.00 ${CODE}`);
  });
});
