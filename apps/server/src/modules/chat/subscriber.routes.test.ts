import { CHAT_MESSAGES } from "@twinline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createPlan, sandboxBuy } from "../../../test/billing.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";

describe("chat for a subscriber (offline responder, sandbox subscription)", () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await adminSession(t)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("an active subscriber has unlimited messages; the chat logs call them premium", async () => {
    const plan = await createPlan(t, admin, { name: "Unlimited Chat", price: 5 });
    const free = await signUp(t);
    const subscriber = await signUp(t);
    const { paid } = await sandboxBuy(t, subscriber.token, { planId: plan._id });
    expect(paid.statusCode, paid.body).toBe(200);

    for (let i = 0; i < 7; i++) {
      const response = await call(t, "POST", "/api/chat/message", {
        token: subscriber.token,
        body: { message: `subscriber message ${i}` },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.remaining).toBe("unlimited");
    }
    const usage = (await call(t, "GET", "/api/chat/usage", { token: subscriber.token })).json();
    expect(usage.data).toMatchObject({ sentToday: 7, remaining: "unlimited" });

    // A free user still stops at the daily limit.
    for (let i = 0; i < 5; i++) {
      await call(t, "POST", "/api/chat/message", { token: free.token, body: { message: "hi" } });
    }
    const refused = await call(t, "POST", "/api/chat/message", {
      token: free.token,
      body: { message: "one more" },
    });
    expect(refused.statusCode).toBe(403);

    const premium = (
      await call(t, "GET", "/api/admin/chat-logs", { token: admin, query: { plan: "premium" } })
    ).json();
    const users = (body: { data: Array<{ user: { _id: string } }> }) => [
      ...new Set(body.data.map((log) => log.user._id)),
    ];
    expect(users(premium)).toEqual([subscriber.user.id]);
    const standard = (
      await call(t, "GET", "/api/admin/chat-logs", { token: admin, query: { plan: "standard" } })
    ).json();
    expect(users(standard)).toEqual([free.user.id]);

    // Canceled: still unlimited until the period ends.
    await call(t, "POST", "/api/subscriptions/cancel", { token: subscriber.token });
    const after = await call(t, "POST", "/api/chat/message", {
      token: subscriber.token,
      body: { message: "still here" },
    });
    expect(after.json().data.remaining).toBe("unlimited");
  });

  it("free messages per day set to 0 by the admin: subscribers only, a free user refused at once", async () => {
    const plan = await createPlan(t, admin, { name: "Only Subscribers", price: 5 });
    const free = await signUp(t);
    const subscriber = await signUp(t);
    const { paid } = await sandboxBuy(t, subscriber.token, { planId: plan._id });
    expect(paid.statusCode, paid.body).toBe(200);

    const current = (await call(t, "GET", "/api/admin/settings", { token: admin })).json().data;
    const { providers: _providers, ...body } = current;
    const saved = await call(t, "PUT", "/api/settings", {
      token: admin,
      body: { ...body, freeMessagesPerDay: 0 },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const usage = (await call(t, "GET", "/api/chat/usage", { token: free.token })).json();
    expect(usage.data).toMatchObject({ sentToday: 0, dailyLimit: 0, remaining: 0 });
    const refused = await call(t, "POST", "/api/chat/message", {
      token: free.token,
      body: { message: "the first of the day" },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      message: CHAT_MESSAGES.dailyLimitError,
      dailyLimit: 0,
    });
    const answered = await call(t, "POST", "/api/chat/message", {
      token: subscriber.token,
      body: { message: "still unlimited" },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().data.remaining).toBe("unlimited");
  });
});
