import { expect, test } from "@playwright/test";
import type { Page } from "playwright-core";
import { adminApiToken, signInAdmin, signUpFan, uniqueFan } from "./support/accounts";
import { type AdminAndFan, startAdminAndFan } from "./support/admin-and-fan";
import {
  agreeToRenewal,
  CANCELED_TOAST,
  cancelSubscriptionConfirmed,
  createAsAdmin,
  payInSandbox,
} from "./support/billing";
import type { RunningServer } from "./support/server";

// A fan's subscription life in Chromium against the built app with no keys (issue 16): they
// subscribe to the dearer plan, downgrade and see the unused part credited to their next
// invoice, then cancel and still see the plan, as Canceling, everywhere; the admin sees
// "Canceled" in the users list and "Cancels at period end" in the user's details.
// The tests of this file run in order and share the server.

const stamp = `${Date.now()}`;
const FAN_PLAN = `Fan ${stamp}`;
const SUPERFAN_PLAN = `Superfan ${stamp}`;
const fanAccount = uniqueFan("lifecycle", "Lifecycle Fan");

let setup: AdminAndFan;
let server: RunningServer;
let admin: Page;
let fan: Page;

// The tests run in order on what the earlier ones left (pages, accounts, settings): a failure
// skips the rest instead of running them on a state they do not expect.
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  setup = await startAdminAndFan({ fanWidth: 1280 });
  ({ server, admin, fan } = setup);
});

test.afterAll(() => setup?.close());

/** The admin's plans, made through the API (the plan form has its own test in billing.test.ts). */
async function createPlans(page: Page) {
  const token = await adminApiToken(page, server.url);
  for (const [name, price] of [
    [FAN_PLAN, 9.99],
    [SUPERFAN_PLAN, 19.99],
  ] as const) {
    await createAsAdmin(page, server.url, token, "/api/subscriptions", {
      name,
      price,
      features: ["Unlimited messages"],
    });
  }
}

async function openManage(page: Page) {
  await page.goto(`${server.url}/dashboard/credits`);
  await page.getByRole("button", { name: "Manage Subscription" }).click();
  return page.getByRole("dialog", { name: "Manage Subscription" });
}

test.describe("a subscription's life", () => {
  test("the fan subscribes to the dearer plan through the sandbox", async () => {
    await signUpFan(fan, server.url, fanAccount);
    await createPlans(fan);
    await fan.goto(`${server.url}/dashboard/credits`);
    await fan.getByRole("button", { name: "Subscribe Now" }).click();
    const dialog = fan.getByRole("dialog", { name: "Subscribe to a Plan" });
    await dialog.getByRole("button", { name: new RegExp(SUPERFAN_PLAN) }).click();
    await agreeToRenewal(dialog);
    await dialog.getByRole("button", { name: "Subscribe", exact: true }).click();
    await payInSandbox(fan);
    await fan.waitForURL(/subscription=success/);
    await fan.getByTestId("subscription-summary").getByText(SUPERFAN_PLAN).waitFor();
  });

  test("downgrades and sees the unused part credited to the next invoice", async () => {
    const dialog = await openManage(fan);
    await dialog.getByTestId("current-subscription").getByText(SUPERFAN_PLAN).waitFor();
    await dialog.getByRole("button", { name: new RegExp(FAN_PLAN) }).click();
    const banner = dialog.getByTestId("change-banner");
    expect(await banner.textContent()).toContain("credited to your next invoice");
    await dialog.getByRole("button", { name: "Change Plan" }).click();
    const success = dialog.getByTestId("change-success");
    await success.getByText(/is credited to your next invoice\./).waitFor();
    // Right after subscribing almost the whole difference is left: about $10.00.
    const credited = /\$(\d+\.\d{2}) is credited/.exec((await success.textContent()) ?? "");
    expect(Number(credited?.[1])).toBeGreaterThan(9.9);
    expect(Number(credited?.[1])).toBeLessThanOrEqual(10);
    await fan.keyboard.press("Escape");

    await fan.goto(`${server.url}/dashboard/transactions?tab=subscriptions`);
    const payments = fan.getByTestId("subscriptions-transactions");
    const row = payments.getByRole("row").filter({ hasText: "credited to your next invoice" });
    await row.waitFor();
    expect(await row.textContent()).toContain(`-$${credited?.[1]}`);
    expect(await row.textContent()).toContain("Credited");
    await payments.getByRole("row").filter({ hasText: SUPERFAN_PLAN }).first().waitFor();
  });

  test("cancels and still sees the plan, as Canceling, on every screen", async () => {
    const dialog = await openManage(fan);
    await cancelSubscriptionConfirmed(fan, dialog);
    await fan.getByText(CANCELED_TOAST).waitFor();
    await dialog.getByTestId("current-subscription").getByText("Canceling").waitFor();
    await fan.keyboard.press("Escape");
    const summary = fan.getByTestId("subscription-summary");
    await summary.getByText(/Canceling · ends/).waitFor();
    expect(await summary.textContent()).toContain(FAN_PLAN);

    await fan.goto(`${server.url}/dashboard`);
    const card = fan.getByTestId("card-subscription");
    await card.getByText("Canceling").waitFor();
    expect(await card.textContent()).toContain(FAN_PLAN);
    expect(await card.getByText("Subscribe now").count()).toBe(0);
    await fan.getByText("Premium").waitFor();
    expect(await fan.getByRole("link", { name: "Subscribe Now" }).count()).toBe(0);
  });

  test("the admin sees Canceled in the list and Cancels at period end in the details", async () => {
    await signInAdmin(admin, server.url, "/admin/users");
    await admin.getByPlaceholder("Search by name or email").fill(fanAccount.email);
    const row = admin.getByTestId("user-row").filter({ hasText: fanAccount.email });
    await row.getByText("Canceled").waitFor();
    await row.getByLabel(`View details of ${fanAccount.name}`).click();
    const subscription = admin.getByTestId("subscription-card");
    await subscription.getByText(FAN_PLAN).waitFor();
    expect(await subscription.getByTestId("renewal").textContent()).toBe("Cancels at period end");
    expect(await subscription.getByTestId("plan-duration").textContent()).toBe("monthly");
  });
});
