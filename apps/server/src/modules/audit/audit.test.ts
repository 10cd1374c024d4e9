import { defaultPublicSettings, type UpdateSettingsRequest } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { adminCreditRows, createPackage, createPlan, sandboxBuy } from "../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";

const OPENAI_KEY = "sk-audit-secret-key-0123456789abcdef";

const settingsBody = (openai: string): UpdateSettingsRequest => ({
  ...structuredClone(defaultPublicSettings),
  apiKeys: { openai, stripe: { secret: "", publishable: "" }, elevenLabs: "" },
});

/** The audit log of admin writes: who, what, target, before and after, when, from where. */
describe("audit log", () => {
  let t: TestApp;
  let admin: { token: string; id: string; email: string };
  let other: { token: string; id: string; email: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminSession(t);
    other = await adminSession(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const log = async (query: Record<string, string> = {}, token = admin.token) => {
    const response = await call(t, "GET", "/api/admin/audit-log", { token, query });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as {
      data: Array<Record<string, unknown> & { action: string; before: unknown; after: unknown }>;
      pagination: { total: number; pages: number; page: number; limit: number };
    };
  };

  it("records a settings save with the keys masked, before and after", async () => {
    const saved = await call(t, "PUT", "/api/settings", {
      token: admin.token,
      body: { ...settingsBody(OPENAI_KEY), defaultCredits: 77 },
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const { data } = await log({ action: "settings.update", admin: admin.id });
    expect(data).toHaveLength(1);
    const entry = data[0];
    expect(entry).toMatchObject({
      admin: { _id: admin.id, email: admin.email },
      targetType: "settings",
      method: "PUT",
      path: "/api/settings",
      before: { defaultCredits: 100 },
      after: { defaultCredits: 77, apiKeys: { openai: expect.stringMatching(/^•+cdef$/) } },
    });
    expect(typeof entry?.ip).toBe("string");
    expect(JSON.stringify(entry)).not.toContain(OPENAI_KEY);
    expect(JSON.stringify(entry)).not.toContain("0123456789ab");
  });

  it("records user status, plans and AI training; not reads, refused writes, nor users' writes", async () => {
    const fan = await signUp(t);
    const before = (await log({}, other.token)).pagination.total;
    const off = await call(t, "PUT", `/api/admin/users/${fan.user.id}/status`, {
      token: other.token,
      body: { action: "deactivate" },
    });
    expect(off.statusCode, off.body).toBe(200);
    const plan = await createPlan(t, other.token, { name: "Audited Plan", price: 3 });
    const prompt = await call(t, "PUT", "/api/ai-training/system-prompt", {
      token: other.token,
      body: { systemPrompt: "Be kind." },
    });
    expect(prompt.statusCode, prompt.body).toBe(200);
    // None of these is recorded: a read, a refused write, a user's own write.
    await call(t, "GET", "/api/admin/users", { token: other.token });
    const refused = await call(t, "PUT", "/api/settings", {
      token: other.token,
      body: { ...settingsBody(""), defaultCredits: -1 },
    });
    expect(refused.statusCode).toBe(400);
    const someone = await signUp(t);
    await call(t, "PUT", "/api/users/profile", { token: someone.token, body: { name: "Renamed" } });

    const mine = await log({ admin: other.email });
    expect(mine.data.map((entry) => entry.action)).toEqual([
      "ai_training.system_prompt",
      "plan.create",
      "user.status",
    ]);
    expect(mine.data[2]).toMatchObject({
      targetType: "user",
      targetId: fan.user.id,
      before: { isActive: true, action: "deactivate" },
      after: { isActive: false },
    });
    expect(mine.data[1]).toMatchObject({ targetType: "plan", after: { _id: plan._id } });
    expect((await log({}, other.token)).pagination.total).toBe(before + 3);
  });

  it("records a plan's update with the plan as it was before", async () => {
    const plan = await createPlan(t, admin.token, { name: "Before Name", price: 4 });
    const updated = await call(t, "PUT", `/api/subscriptions/${plan._id}`, {
      token: admin.token,
      body: { name: "After Name", price: 4, interval: "month", intervalCount: 1 },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const { data } = await log({ action: "plan.update", targetId: plan._id });
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      targetType: "plan",
      before: { name: "Before Name" },
      after: { name: "After Name" },
    });
  });

  it("names each target as an operator knows it: the right kind, its id and its label", async () => {
    const labeller = await adminSession(t);
    const fan = await signUp(t);
    const plan = await createPlan(t, labeller.token, { name: "Labelled Gold", price: 5 });
    const pack = await createPackage(t, labeller.token, { name: "Labelled Pack", price: 2 });
    // The fan subscribes and buys credits; the admin cancels the one and refunds the other.
    expect((await sandboxBuy(t, fan.token, { planId: plan._id })).paid.statusCode).toBe(200);
    expect((await sandboxBuy(t, fan.token, { packageId: pack._id })).paid.statusCode).toBe(200);
    const canceled = await call(t, "POST", `/api/admin/users/${fan.user.id}/subscription/cancel`, {
      token: labeller.token,
      body: { when: "period_end", refundUnused: false, reason: "Asked by mail" },
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    const subscriptionId = canceled.json().data.subscription._id as string;
    const payment = (await adminCreditRows(t, labeller.token, { search: fan.user.email })).data[0];
    expect(payment).toBeDefined();
    const refunded = await call(t, "POST", `/api/admin/payments/${payment?._id}/refund`, {
      token: labeller.token,
      body: { reason: "Bought twice" },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const page = await call(t, "PUT", "/api/admin/pages/terms", {
      token: labeller.token,
      body: { content: "# Terms\n\nBe nice." },
    });
    expect(page.statusCode, page.body).toBe(200);

    // Last: deactivating the fan ends their session.
    const status = await call(t, "PUT", `/api/admin/users/${fan.user.id}/status`, {
      token: labeller.token,
      body: { action: "deactivate" },
    });
    expect(status.statusCode, status.body).toBe(200);
    await call(t, "PUT", `/api/admin/users/${fan.user.id}/status`, {
      token: labeller.token,
      body: { action: "activate" },
    });
    const { data } = await log({ admin: labeller.email });
    const shown = data
      .map(({ action, targetType, targetId, targetLabel }) => [
        action,
        targetType,
        targetId,
        targetLabel,
      ])
      .reverse();
    const email = fan.user.email;
    expect(shown).toEqual([
      ["plan.create", "plan", plan._id, "Labelled Gold"],
      ["package.create", "package", pack._id, "Labelled Pack"],
      ["subscription.cancel", "subscription", subscriptionId, `Labelled Gold · ${email}`],
      ["payment.refund", "payment", payment?._id, `Labelled Pack · ${email}`],
      ["page.update", "page", "terms", "Terms of Service"],
      ["user.status", "user", fan.user.id, email],
      ["user.status", "user", fan.user.id, email],
    ]);
    expect(subscriptionId).not.toBe(fan.user.id);

    // A renamed plan shows its new name on its earlier rows, and the page's kind filters.
    await call(t, "PUT", `/api/subscriptions/${plan._id}`, {
      token: labeller.token,
      body: { name: "Renamed Gold", price: 5, interval: "month", intervalCount: 1 },
    });
    const planRows = await log({ targetType: "plan", targetId: plan._id });
    expect(planRows.data.map((entry) => entry.targetLabel)).toEqual([
      "Renamed Gold",
      "Renamed Gold",
    ]);
    expect((await log({ targetType: "page", admin: labeller.email })).data).toHaveLength(1);
  });

  it("names the admin themself as the target of a password change", async () => {
    const changer = await adminSession(t);
    const changed = await call(t, "PUT", "/api/admin/change-password", {
      token: changer.token,
      body: { currentPassword: changer.password, newPassword: "a much longer new password" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const { data } = await log({ admin: changer.email });
    expect(data[0]).toMatchObject({
      action: "admin.change_password",
      targetType: "admin",
      targetId: changer.id,
      targetLabel: changer.email,
    });
  });

  it("filters by action, target and dates, and pages", async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect((await log({ startDate: today, endDate: today })).pagination.total).toBeGreaterThan(0);
    expect((await log({ endDate: "2000-01-01" })).pagination.total).toBe(0);
    expect((await log({ targetType: "plan" })).data.every((e) => e.targetType === "plan")).toBe(
      true,
    );
    expect((await log({ action: "plan." })).data.length).toBeGreaterThan(0);
    const paged = await log({ limit: "2", page: "1" });
    expect(paged.data).toHaveLength(2);
    expect(paged.pagination.pages).toBe(Math.ceil(paged.pagination.total / 2));
    const second = await log({ limit: "2", page: "2" });
    expect(second.data[0]?._id).not.toBe(paged.data[0]?._id);
  });

  it("answers 400 naming the field to a bad query, 401 and 403 to others", async () => {
    for (const [query, field] of [
      [{ page: "0" }, "page"],
      [{ limit: "1000" }, "limit"],
      [{ targetType: "planet" }, "targetType"],
      [{ startDate: "yesterday" }, "startDate"],
      [{ admin: "a\u0000b" }, "admin"],
      [{ startDate: "2025-02-02", endDate: "2025-02-01" }, "startDate"],
    ] as const) {
      const response = await call(t, "GET", "/api/admin/audit-log", {
        token: admin.token,
        query,
      });
      expect(response.statusCode, `${JSON.stringify(query)} ${response.body}`).toBe(400);
      expect(response.json().message).toContain(field);
    }
    const fan = await signUp(t);
    expect((await call(t, "GET", "/api/admin/audit-log", { token: fan.token })).statusCode).toBe(
      403,
    );
  });
});
