import { expect, test } from "@playwright/test";
import type { Page } from "playwright-core";
import { adminApiToken, csrfToken, signUpFan, uniqueFan } from "./support/accounts";
import { type AdminAndFan, startAdminAndFan } from "./support/admin-and-fan";
import { sweep } from "./support/axe";
import { CANCELED_TOAST, createAsAdmin, creditBalance, payInSandbox } from "./support/billing";
import type { RunningServer } from "./support/server";

// Issue 26, items 3 and 5, in Chromium against the built app: the consent box blocking a
// checkout until ticked, withdrawal from a purchase in two steps, the low-balance notice on the
// overview, the credits page and the sidebar, and a plan's renewal terms, cancel with its one
// question, and Resume subscription. axe on each dialog. The tests run in order.

const stamp = `${Date.now()}`;
const PACKAGE = `Rights Pack ${stamp}`;
const PLAN = `Rights Plan ${stamp}`;

let setup: AdminAndFan;
let server: RunningServer;
let admin: Page;
let fan: Page;
let fanToken: string;
let adminToken: string;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // axe goes in as a script tag: the app's CSP would refuse it.
  setup = await startAdminAndFan({
    fanWidth: 1280,
    contextOptions: { bypassCSP: true },
    healthTimeoutMs: 120_000,
  });
  ({ server, admin, fan } = setup);
  adminToken = await adminApiToken(admin, server.url);
  await createAsAdmin(admin, server.url, adminToken, "/api/credit-packages", {
    name: PACKAGE,
    credits: 100,
    price: 9.99,
  });
  await createAsAdmin(admin, server.url, adminToken, "/api/subscriptions", {
    name: PLAN,
    price: 9.99,
    features: ["Unlimited messages"],
  });
  fanToken = await signUpFan(fan, server.url, uniqueFan("rights"));
});

test.afterAll(() => setup?.close());

/** Sets the fan's balance to `credits` through the admin's adjustment. */
async function setBalance(credits: number) {
  const me = await fan.context().request.get(`${server.url}/api/auth/me`, {
    headers: { authorization: `Bearer ${fanToken}` },
  });
  const { data: user } = (await me.json()) as { data: { id: string; credits: number } };
  const delta = credits - user.credits;
  if (delta === 0) return;
  const adjusted = await admin
    .context()
    .request.post(`${server.url}/api/admin/users/${user.id}/credits`, {
      headers: {
        "csrf-token": await csrfToken(admin, server.url),
        authorization: `Bearer ${adminToken}`,
      },
      data: { delta, reason: "e2e: spent in calls" },
    });
  expect(adjusted.status(), await adjusted.text()).toBe(200);
}

test.describe("consent, withdrawal, low balance, cancel and resume", () => {
  test("a package's checkout waits for the delivery consent to be ticked", async () => {
    await fan.goto(`${server.url}/dashboard/credits`);
    await fan.getByTestId("credit-balance").waitFor();
    const before = await creditBalance(fan);
    await fan.getByRole("button", { name: `Buy ${PACKAGE}` }).click();
    const dialog = fan.getByTestId("package-consent-dialog");
    const box = dialog.getByRole("checkbox", { name: /delivered immediately/ });
    expect(await box.isChecked()).toBe(false);
    expect(await dialog.textContent()).toContain(
      "I want my 100 credits ($9.99) delivered immediately, and I acknowledge that I lose my right of withdrawal for the credits I use.",
    );
    const go = dialog.getByRole("button", { name: "Continue to payment" });
    expect(await go.isDisabled()).toBe(true);
    expect(await sweep(fan, "package consent dialog")).toEqual([]);
    await box.check();
    await go.click();
    await payInSandbox(fan);
    await fan.waitForURL(/checkout=success/);
    await expect.poll(() => creditBalance(fan), { timeout: 15_000 }).toBe(before + 100);
  });

  test("withdraws from the purchase in two steps from the transactions page", async () => {
    // 40 of the 100 used: 60 unused, 9.99 x 60 / 100 = 5.994 -> $6.00.
    await setBalance(60);
    await fan.goto(`${server.url}/dashboard/transactions`);
    const list = fan.getByTestId("credits-transactions");
    await list.getByRole("button", { name: `Withdraw from ${PACKAGE}` }).click();
    const dialog = fan.getByRole("dialog", { name: "Withdraw from a purchase" });
    await dialog.getByText("$6.00").waitFor();
    expect(await sweep(fan, "withdrawal dialog, step 1")).toEqual([]);
    await dialog.getByRole("button", { name: "Withdraw", exact: true }).click();
    await dialog
      .getByRole("alert")
      .getByText(/Confirm: withdraw from this purchase\?/)
      .waitFor();
    expect(await sweep(fan, "withdrawal dialog, step 2")).toEqual([]);
    await dialog.getByRole("button", { name: "Confirm withdrawal" }).click();
    const done = dialog.getByTestId("withdraw-done");
    await done.waitFor();
    expect(await done.textContent()).toContain("$6.00 is refunded to your card, 60 credits");
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await list.getByText("Withdrawn").waitFor();
    expect(await list.getByRole("button", { name: `Withdraw from ${PACKAGE}` }).count()).toBe(0);
  });

  test("warns of a balance below one call minute on the overview, the credits page and the sidebar", async () => {
    await setBalance(2);
    await fan.goto(`${server.url}/dashboard`);
    const notices = fan.getByTestId("low-balance");
    // The overview's and the sidebar's.
    await expect.poll(() => notices.count(), { timeout: 15_000 }).toBe(2);
    // The balance the page read before this test's (0, after the withdrawal) may show first.
    await expect
      .poll(() => notices.first().textContent(), { timeout: 15_000 })
      .toContain("You have 2 credits: a call minute costs 5.");
    expect(await sweep(fan, "overview with the low-balance notice")).toEqual([]);
    await fan.goto(`${server.url}/dashboard/credits`);
    await fan.getByTestId("credit-balance").waitFor();
    await expect.poll(() => notices.count()).toBe(2);
    // At one minute's worth: no notice.
    await setBalance(5);
    await fan.goto(`${server.url}/dashboard/credits`);
    await fan.getByTestId("credit-balance").getByText("5").waitFor();
    expect(await notices.count()).toBe(0);
  });

  test("subscribes after ticking the renewal terms, cancels after one question, resumes", async () => {
    await fan.goto(`${server.url}/dashboard/credits`);
    await fan.getByRole("button", { name: "Subscribe Now" }).click();
    let dialog = fan.getByRole("dialog", { name: "Subscribe to a Plan" });
    await dialog.getByRole("button", { name: new RegExp(PLAN) }).click();
    const subscribe = dialog.getByRole("button", { name: "Subscribe", exact: true });
    const terms = dialog.getByRole("checkbox", {
      name: "$9.99 charged every month until you cancel; cancel any time in your dashboard.",
    });
    expect(await terms.isChecked()).toBe(false);
    expect(await subscribe.isDisabled()).toBe(true);
    expect(await sweep(fan, "subscription dialog with the renewal terms")).toEqual([]);
    await terms.check();
    await subscribe.click();
    await payInSandbox(fan);
    await fan.waitForURL(/subscription=success/);
    await fan.getByTestId("subscription-summary").getByText(PLAN).waitFor();

    await fan.getByRole("button", { name: "Manage Subscription" }).click();
    dialog = fan.getByRole("dialog", { name: "Manage Subscription" });
    await dialog.getByRole("button", { name: "Cancel Subscription" }).click();
    const ask = fan.getByRole("alertdialog", { name: "Cancel your subscription?" });
    expect(await ask.textContent()).toMatch(
      /Your plan stays until [A-Z][a-z]{2} \d{1,2}, \d{4}; you will not be charged again\./,
    );
    expect(await sweep(fan, "cancel confirmation")).toEqual([]);
    await ask.getByRole("button", { name: "Cancel subscription" }).click();
    await fan.getByText(CANCELED_TOAST).waitFor();
    await dialog.getByTestId("current-subscription").getByText("Canceling").waitFor();

    await dialog.getByRole("button", { name: "Resume subscription" }).click();
    await fan
      .getByText("Your subscription is resumed: it renews at the end of the period")
      .waitFor();
    await dialog.getByTestId("current-subscription").getByText("Renews automatically").waitFor();
    expect(await dialog.getByRole("button", { name: "Cancel Subscription" }).count()).toBe(1);
  });
});
