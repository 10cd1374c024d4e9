import { expect, test } from "@playwright/test";
import type { Page } from "playwright-core";
import {
  ADMIN_ENV,
  signedInAdminToken,
  signInAdmin,
  signUpFan,
  uniqueFan,
} from "./support/accounts";
import { type AdminAndFan, startAdminAndFan } from "./support/admin-and-fan";
import { agreeToDelivery, createAsAdmin, creditBalance, payInSandbox } from "./support/billing";
import type { RunningServer } from "./support/server";

// The operator's money tools in Chromium against the built app with no keys (issue 16): a fan
// buys a package through the sandbox checkout; the admin refunds it from the user's details;
// the fan's balance drops and the payment shows refunded; the audit log shows the refund.

let setup: AdminAndFan;
let server: RunningServer;
let admin: Page;
let fan: Page;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  setup = await startAdminAndFan({ fanWidth: 360 });
  ({ server, admin, fan } = setup);
});

test.afterAll(() => setup?.close());

test.describe("the operator's money tools", () => {
  test("the admin refunds a purchase: the fan's balance drops and the audit log shows it", async () => {
    const stamp = Date.now();
    const pack = `Refund Pack ${stamp}`;
    await signInAdmin(admin, server.url);
    // The package, made through the API with the admin's session.
    const token = await signedInAdminToken(admin);
    await createAsAdmin(admin, server.url, token, "/api/credit-packages", {
      name: pack,
      credits: 300,
      price: 12,
    });

    // The fan buys it through the sandbox checkout.
    const person = uniqueFan("refunded", "Refunded Fan");
    await signUpFan(fan, server.url, person);
    const fanId = await fan.evaluate(
      () => (JSON.parse(localStorage.getItem("userData") ?? "{}") as { id: string }).id,
    );
    await fan.goto(`${server.url}/dashboard/credits`);
    await fan.getByTestId("credit-balance").waitFor();
    const before = await creditBalance(fan);
    await fan
      .getByTestId("credit-package")
      .filter({ hasText: pack })
      .getByRole("button", { name: `Buy ${pack}` })
      .click();
    await agreeToDelivery(fan);
    await payInSandbox(fan);
    await fan.waitForURL(/checkout=success/);
    await expect.poll(() => creditBalance(fan), { timeout: 15_000 }).toBe(before + 300);

    // The admin refunds it from the user's details, behind the confirm dialog.
    await admin.goto(`${server.url}/admin/users/${fanId}?tab=credits`);
    await admin.getByRole("heading", { name: "User Details" }).waitFor();
    await admin.getByRole("button", { name: "Refund", exact: true }).click();
    const dialog = admin.getByTestId("refund-dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("$12.00");
    // A reason is required before anything is sent.
    await dialog.getByRole("button", { name: "Refund $12.00" }).click();
    await dialog.getByText("A reason is required").waitFor();
    await dialog.getByLabel("Reason").fill("Bought by mistake");
    const refunded = admin.waitForResponse((r) => new URL(r.url()).pathname.endsWith("/refund"));
    await dialog.getByRole("button", { name: "Refund $12.00" }).click();
    expect((await refunded).status()).toBe(200);
    await admin.getByText("The payment was refunded").waitFor();
    await admin.getByText("Refunded", { exact: true }).first().waitFor();

    // The fan's balance drops by the credits bought; the purchase shows refunded.
    await fan.goto(`${server.url}/dashboard/credits`);
    await expect.poll(() => creditBalance(fan), { timeout: 15_000 }).toBe(before);
    await fan.goto(`${server.url}/dashboard/transactions`);
    await fan.getByTestId("credits-transactions").getByText("Refunded").first().waitFor();
    await fan.getByRole("tab", { name: "Credit Activity" }).click();
    await fan.getByTestId("credit-activity").getByText("-300").waitFor();

    // The audit log, from the sidebar, shows who refunded what.
    await admin.getByRole("link", { name: "Audit Log" }).click();
    await admin.waitForURL(`${server.url}/admin/audit-log`);
    const row = admin.getByTestId("audit-row").filter({ hasText: "payment.refund" }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain(ADMIN_ENV.ADMIN_EMAIL);
    await row.getByText("Before / after").click();
    expect(await row.textContent()).toContain("Bought by mistake");
  });
});
