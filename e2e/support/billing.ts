import { expect } from "@playwright/test";
import type { Locator, Page } from "playwright-core";
import { sendWithCsrf } from "./accounts";

/** A card the sandbox checkout accepts (4000 0000 0000 0002 is declined). */
const PAYING_CARD = "4242 4242 4242 4242";

/** The balance the fan's credits page shows. */
export async function creditBalance(page: Page): Promise<number> {
  const text = (await page.getByTestId("credit-balance").textContent()) ?? "";
  return Number(text.replace(/[^\d]/g, ""));
}

/** Once on the sandbox checkout page, fills its card form and pays. */
export async function payInSandbox(page: Page, card = PAYING_CARD) {
  await page.waitForURL(/\/checkout\/sandbox\//);
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry").fill("12/40");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
}

/**
 * Creates a credit package (`/api/credit-packages`) or a plan (`/api/subscriptions`) through the
 * admin API with the admin's `token`, for tests of something other than their forms (those are
 * billing.test.ts's).
 */
export async function createAsAdmin(
  page: Page,
  baseUrl: string,
  token: string,
  path: "/api/credit-packages" | "/api/subscriptions",
  data: Record<string, unknown>,
) {
  const created = await sendWithCsrf(page, baseUrl, (csrf) =>
    page.context().request.post(`${baseUrl}${path}`, {
      headers: { "csrf-token": csrf, authorization: `Bearer ${token}` },
      data,
    }),
  );
  expect(created.status(), await created.text()).toBe(201);
}

/**
 * After a package's Buy: the delivery consent (issue 26, item 3) is ticked, then the checkout
 * opens.
 */
export async function agreeToDelivery(page: Page) {
  const dialog = page.getByTestId("package-consent-dialog");
  await dialog.getByRole("checkbox").check();
  await dialog.getByRole("button", { name: "Continue to payment" }).click();
}

/** In the Subscription dialog, with a plan chosen: ticks its renewal terms. */
export async function agreeToRenewal(dialog: Locator) {
  await dialog.getByTestId("consent").getByRole("checkbox").check();
}

/** Cancel Subscription, then its one question answered yes. */
export async function cancelSubscriptionConfirmed(page: Page, dialog: Locator) {
  await dialog.getByRole("button", { name: "Cancel Subscription" }).click();
  await page
    .getByRole("alertdialog", { name: "Cancel your subscription?" })
    .getByRole("button", { name: "Cancel subscription" })
    .click();
}

/** The toast a confirmed cancel shows: the plan's end date, and no further charge. */
export const CANCELED_TOAST = /^Your plan stays until .+; you will not be charged again\.$/;
