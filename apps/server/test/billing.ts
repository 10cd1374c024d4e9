import {
  adminCreditTransactionsResponseSchema,
  CONSENT_VERSIONS,
  checkoutResponseSchema,
  creditPackageResponseSchema,
  SANDBOX_CARDS,
  subscriptionPlanResponseSchema,
} from "@twinline/contracts";
import { expect } from "vitest";
import { call } from "./accounts.ts";
import type { TestApp } from "./create-test-app.ts";

/** An admin creates a credit package through the API. */
export async function createPackage(t: TestApp, adminToken: string, body: object = {}) {
  const response = await call(t, "POST", "/api/credit-packages", {
    token: adminToken,
    body: { name: "Starter Pack", ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return creditPackageResponseSchema.parse(response.json()).data;
}

/** An admin creates a subscription plan through the API. */
export async function createPlan(t: TestApp, adminToken: string, body: object = {}) {
  const response = await call(t, "POST", "/api/subscriptions", {
    token: adminToken,
    body: { name: "Monthly Plan", price: 10, ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return subscriptionPlanResponseSchema.parse(response.json()).data;
}

/** The session id at the end of a checkout URL. */
export const sessionIdOf = (url: string) => url.split("/").at(-1) ?? "";

/** A user buys through the sandbox: checkout, then the card form with the test card. */
export async function sandboxBuy(
  t: TestApp,
  token: string,
  what: ({ packageId: string } | { planId: string }) & { promotionCode?: string },
  cardNumber: string = SANDBOX_CARDS.success,
) {
  const path =
    "packageId" in what
      ? "/api/payments/create-checkout-session"
      : "/api/subscriptions/create-checkout";
  // The fan ticks the consent box of the text the page shows (docs/decisions/0064).
  const consentVersion = "packageId" in what ? CONSENT_VERSIONS.credits : CONSENT_VERSIONS.plan;
  const checkout = await call(t, "POST", path, { token, body: { ...what, consentVersion } });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const { url, sessionId } = checkoutResponseSchema.parse(checkout.json());
  const paid = await call(t, "POST", `/api/payments/sandbox/sessions/${sessionId}/pay`, {
    token,
    body: { cardNumber, expiry: "12/40", cvc: "123" },
  });
  return { url, sessionId, paid };
}

export async function balanceOf(t: TestApp, token: string): Promise<number> {
  const response = await call(t, "GET", "/api/users/credit-balance", { token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().available as number;
}

export async function adminCreditRows(t: TestApp, adminToken: string, query = {}) {
  const response = await call(t, "GET", "/api/admin/credit-transactions", {
    token: adminToken,
    query,
  });
  expect(response.statusCode, response.body).toBe(200);
  return adminCreditTransactionsResponseSchema.parse(response.json());
}
