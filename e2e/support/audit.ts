import { expect } from "@playwright/test";
import type { Page } from "playwright-core";
import { adminApiToken, changeSettingsAsAdmin, csrfToken, signUpFan, uniqueFan } from "./accounts";
import { createAsAdmin } from "./billing";

/**
 * Fills the audit log through the admin API with one row of each shape the screen shows: a
 * settings save (a large JSON with masked keys), a plan and a package created, a site page
 * saved, a fan deactivated (targets with labels). `page` is a page of its own context: a fan
 * signs up in it.
 */
export async function fillAuditLog(page: Page, baseUrl: string, stamp: number) {
  await changeSettingsAsAdmin(page, baseUrl, { defaultCredits: 123 });
  const token = await adminApiToken(page, baseUrl);
  await createAsAdmin(page, baseUrl, token, "/api/subscriptions", {
    name: `Audit Plan ${stamp}`,
    price: 7,
    features: ["Unlimited messages", "Voice calls every day of the week"],
  });
  await createAsAdmin(page, baseUrl, token, "/api/credit-packages", {
    name: `Audit Pack ${stamp}`,
    credits: 100,
    price: 5,
  });
  const request = page.context().request;
  const headers = async () => ({
    authorization: `Bearer ${token}`,
    "csrf-token": await csrfToken(page, baseUrl),
  });
  const saved = await request.put(`${baseUrl}/api/admin/pages/faq`, {
    headers: await headers(),
    data: { content: `# FAQ\n\nAsked on ${stamp}: a long answer that goes on for a while.` },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await signUpFan(page, baseUrl, uniqueFan("audited", "Audited"));
  const fanId = await page.evaluate(
    () => (JSON.parse(localStorage.getItem("userData") ?? "{}") as { id: string }).id,
  );
  const off = await request.put(`${baseUrl}/api/admin/users/${fanId}/status`, {
    headers: await headers(),
    data: { action: "deactivate" },
  });
  expect(off.status(), await off.text()).toBe(200);
}
