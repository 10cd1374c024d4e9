import {
  CRISIS_TEXT,
  chatLogsResponseSchema,
  chatUsageResponseSchema,
  crisisReferralsResponseSchema,
  DEFAULT_CRISIS_RESOURCES,
  memoryResponseSchema,
  messagesPageResponseSchema,
  sendMessageResponseSchema,
} from "@twinline/contracts";
import { FAKE_OPENAI_KEY, type FakeOpenAi, startFakeOpenAi } from "@twinline/fakes";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { adminAuditLog, chatMessages, crisisReferralsDaily } from "../../db/schema/index.ts";
import { utcDay } from "../../lib/utc-day.ts";

const CRISIS_SENTENCE = "I want to end my life tonight";
/** Flagged by the offline phrases too: what decides when the provider fails. */
const OFFLINE_CRISIS_SENTENCE = "i want to kill myself";
const HARMFUL_REPLY = "Here is exactly how to hurt yourself without anyone noticing.";

const send = (t: TestApp, token: string, body: object, stream = false) =>
  call(t, "POST", "/api/chat/message", {
    token,
    body,
    ...(stream ? { headers: { accept: "text/event-stream" } } : {}),
  });

const completions = (fake: FakeOpenAi) =>
  fake.requests.filter((request) => request.path === "/v1/chat/completions");

async function usageOf(t: TestApp, token: string) {
  const response = await call(t, "GET", "/api/chat/usage", { token });
  return chatUsageResponseSchema.parse(response.json()).data;
}

async function referralsToday(t: TestApp): Promise<number> {
  const [row] = await t.app.database.db
    .select()
    .from(crisisReferralsDaily)
    .where(eq(crisisReferralsDaily.day, utcDay(new Date())));
  return row?.referrals ?? 0;
}

async function auditOf(t: TestApp, targetId: string) {
  return t.app.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, targetId));
}

function parseSse(text: string) {
  return text
    .split("\n\n")
    .filter((block) => block.trim())
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1] ?? "message",
      data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null"),
    }));
}

describe("the crisis protocol on chat sends, with a moderation key (real SDK, fake provider)", () => {
  let t: TestApp;
  let fake: FakeOpenAi;
  let admin: { token: string };

  beforeAll(async () => {
    fake = await startFakeOpenAi({
      moderationFlags: {
        [CRISIS_SENTENCE]: ["self-harm", "self-harm/intent"],
        [HARMFUL_REPLY]: ["self-harm", "self-harm/instructions"],
      },
    });
    t = await createTestApp({
      env: { OPENAI_API_KEY: FAKE_OPENAI_KEY, OPENAI_BASE_URL: fake.baseUrl },
    });
    await t.app.settings.update({ freeMessagesPerDay: 3 });
    admin = await adminSession(t);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.moderationFails = false;
    fake.reply = ["Hello", " there."];
  });

  it("answers a flagged message with the caring message: no LLM call, nothing counted", async () => {
    const { token } = await signUp(t);
    const before = completions(fake).length;
    const referrals = await referralsToday(t);

    const response = await send(t, token, { message: CRISIS_SENTENCE });
    expect(response.statusCode, response.body).toBe(200);
    const result = sendMessageResponseSchema.parse(response.json()).data;

    expect(completions(fake).length).toBe(before);
    expect(fake.moderationInputs).toContain(CRISIS_SENTENCE);
    expect(result.crisis?.resources).toEqual(DEFAULT_CRISIS_RESOURCES);
    expect(result.aiMessage).toMatchObject({ sender: "product", productKind: "crisis-support" });
    expect(result.response).toContain(CRISIS_TEXT.intro);
    // The conversation it starts still tells the fan they talk with an AI.
    expect(result.notices?.map((notice) => notice.productKind)).toEqual(["ai-notice"]);
    expect(result.response).toContain("988");
    expect(result.response).toContain("116 123");
    // No free message used.
    expect(result.remaining).toBe(3);
    expect(await usageOf(t, token)).toMatchObject({ sentToday: 0, remaining: 3 });
    expect(await referralsToday(t)).toBe(referrals + 1);

    // The fan's own history shows both messages, without the flag.
    const mine = await call(t, "GET", `/api/chat/conversations/${result.conversationId}/messages`, {
      token,
    });
    const messages = messagesPageResponseSchema.parse(mine.json()).data.messages;
    expect(messages.map((message) => [message.sender, message.productKind ?? null])).toEqual([
      ["user", null],
      ["product", "crisis-support"],
      ["product", "ai-notice"],
    ]);
    expect(messages[0]?.flag).toBeUndefined();

    // The admin sees the flag and its category; the audit log has the flag and the referral.
    const logs = await call(t, "GET", `/api/admin/chat-logs/${result.conversationId}/messages`, {
      token: admin.token,
    });
    const logged = messagesPageResponseSchema.parse(logs.json()).data.messages;
    expect(logged[0]?.flag).toEqual({ category: "self-harm/intent", source: "openai" });
    const flagAudit = await auditOf(t, result.userMessage._id);
    expect(flagAudit.map((entry) => entry.action)).toEqual(["crisis.flag"]);
    expect(flagAudit[0]?.after).toMatchObject({ category: "self-harm/intent", channel: "chat" });
    expect(JSON.stringify(flagAudit[0])).not.toContain(CRISIS_SENTENCE);
    const referralAudit = await auditOf(t, result.aiMessage._id);
    expect(referralAudit.map((entry) => entry.action)).toEqual(["crisis.referral"]);
  });

  it("keeps flagged words out of later prompts, recall and what the persona remembers", async () => {
    const { token } = await signUp(t);
    const first = sendMessageResponseSchema.parse(
      (await send(t, token, { message: CRISIS_SENTENCE })).json(),
    ).data;
    // Its own conversation, so only recall could bring it back.
    const elsewhere = await send(t, token, { message: "Tonight I want to plan my life" });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    const recallPrompt = completions(fake).at(-1)?.body.toString() ?? "";
    expect(recallPrompt).toContain("plan my life");
    expect(recallPrompt).not.toContain(CRISIS_SENTENCE);
    const remembered = memoryResponseSchema.parse(
      (await call(t, "GET", "/api/memory", { token })).json(),
    ).data.facts;
    expect(remembered.map((fact) => fact.content)).not.toContain(CRISIS_SENTENCE);
    const next = await send(t, token, {
      message: "Tell me about your day",
      conversationId: first.conversationId,
    });
    expect(next.statusCode, next.body).toBe(200);
    const prompt = completions(fake).at(-1)?.body.toString() ?? "";
    expect(prompt).toContain("Tell me about your day");
    expect(prompt).not.toContain(CRISIS_SENTENCE);
    expect(prompt).not.toContain(CRISIS_TEXT.intro);
    const [stored] = await t.app.database.db
      .select({ forgotten: chatMessages.forgotten })
      .from(chatMessages)
      .where(eq(chatMessages.id, first.userMessage._id));
    expect(stored?.forgotten).toBe(true);
  });

  it("streams the caring message as the reply of a server-sent events send", async () => {
    const { token } = await signUp(t);
    const before = completions(fake).length;
    const response = await send(t, token, { message: CRISIS_SENTENCE }, true);
    expect(response.statusCode).toBe(200);
    const events = parseSse(response.body);
    // The new conversation's AI notice first, then the caring message as the reply.
    expect(events.map((event) => event.event)).toEqual(["notice", "token", "done"]);
    expect(events[2]?.data).toMatchObject({
      aiMessage: { sender: "product", productKind: "crisis-support" },
      crisis: { resources: DEFAULT_CRISIS_RESOURCES },
    });
    expect(completions(fake).length).toBe(before);
  });

  it("falls back to the offline phrases when the moderation provider fails", async () => {
    fake.moderationFails = true;
    const { token } = await signUp(t);
    const before = completions(fake).length;
    const response = await send(t, token, { message: OFFLINE_CRISIS_SENTENCE });
    expect(response.statusCode, response.body).toBe(200);
    const result = sendMessageResponseSchema.parse(response.json()).data;
    expect(result.crisis).toBeDefined();
    expect(completions(fake).length).toBe(before);
    const logs = await call(t, "GET", `/api/admin/chat-logs/${result.conversationId}/messages`, {
      token: admin.token,
    });
    const logged = messagesPageResponseSchema.parse(logs.json()).data.messages;
    expect(logged[0]?.flag?.source).toBe("offline");

    // An ordinary message still gets its reply while the provider is down.
    const ordinary = await send(t, token, { message: "What music do you like?" });
    expect(ordinary.statusCode).toBe(200);
    expect(sendMessageResponseSchema.parse(ordinary.json()).data.crisis).toBeUndefined();
  });

  it("replaces a reply giving self-harm instructions, giving the free message back", async () => {
    fake.reply = [HARMFUL_REPLY];
    const { token } = await signUp(t);
    const referrals = await referralsToday(t);
    const response = await send(t, token, { message: "Tell me a secret" });
    expect(response.statusCode, response.body).toBe(200);
    const result = sendMessageResponseSchema.parse(response.json()).data;
    expect(fake.moderationInputs).toContain(HARMFUL_REPLY);
    expect(result.response).not.toContain(HARMFUL_REPLY);
    expect(result.aiMessage).toMatchObject({ sender: "product", productKind: "crisis-support" });
    expect(result.crisis?.resources).toEqual(DEFAULT_CRISIS_RESOURCES);
    expect(result.remaining).toBe(3);
    expect(await usageOf(t, token)).toMatchObject({ sentToday: 0 });
    expect(await referralsToday(t)).toBe(referrals + 1);

    const stored = await t.app.database.db
      .select({ content: chatMessages.content, flag: chatMessages.flagCategory })
      .from(chatMessages)
      .where(eq(chatMessages.conversationId, result.conversationId));
    expect(stored.map((row) => row.content)).not.toContain(HARMFUL_REPLY);
    expect(stored.find((row) => row.flag)?.flag).toBe("self-harm/instructions");
  });

  it("lists flagged conversations under the Flagged filter, and counts referrals per day", async () => {
    const { token } = await signUp(t, { name: "Flag Filter Fan" });
    const flagged = sendMessageResponseSchema.parse(
      (await send(t, token, { message: CRISIS_SENTENCE })).json(),
    ).data;
    const plain = sendMessageResponseSchema.parse(
      (await send(t, token, { message: "Good morning" })).json(),
    ).data;
    const list = await call(t, "GET", "/api/admin/chat-logs", {
      token: admin.token,
      query: { flagged: "flagged", search: "Flag Filter Fan" },
    });
    expect(list.statusCode, list.body).toBe(200);
    const logs = chatLogsResponseSchema.parse(list.json()).data;
    expect(logs.map((log) => log._id)).toEqual([flagged.conversationId]);
    expect(logs[0]?.flagged).toBe(1);
    const all = chatLogsResponseSchema.parse(
      (
        await call(t, "GET", "/api/admin/chat-logs", {
          token: admin.token,
          query: { search: "Flag Filter Fan" },
        })
      ).json(),
    ).data;
    expect(all.map((log) => log._id).sort()).toEqual(
      [flagged.conversationId, plain.conversationId].sort(),
    );
    const bad = await call(t, "GET", "/api/admin/chat-logs", {
      token: admin.token,
      query: { flagged: "yes" },
    });
    expect(bad.statusCode).toBe(400);

    const figures = await call(t, "GET", "/api/admin/analytics/crisis-referrals", {
      token: admin.token,
      query: { days: "7" },
    });
    expect(figures.statusCode, figures.body).toBe(200);
    const data = crisisReferralsResponseSchema.parse(figures.json()).data;
    expect(data.days).toHaveLength(7);
    expect(data.days.at(-1)).toEqual({
      date: utcDay(new Date()),
      referrals: await referralsToday(t),
    });
    expect(data.total).toBe(await referralsToday(t));

    const csv = await call(t, "GET", "/api/admin/analytics/crisis-referrals/export", {
      token: admin.token,
      query: { days: "2" },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.headers["content-disposition"]).toBe(
      `attachment; filename="crisis-referrals-${utcDay(new Date())}.csv"`,
    );
    const lines = csv.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe('"Date (UTC)","Crisis referrals"');
    expect(lines.at(-1)).toBe(`"${utcDay(new Date())}","${await referralsToday(t)}"`);
    expect(csv.body).not.toContain("@");

    const refused = await call(t, "GET", "/api/admin/analytics/crisis-referrals", {
      token: admin.token,
      query: { days: "0" },
    });
    expect(refused.statusCode).toBe(400);
    const fan = await call(t, "GET", "/api/admin/analytics/crisis-referrals", { token });
    expect(fan.statusCode).toBe(403);
  });
});

describe("the crisis protocol offline (no key): our own phrases", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.settings.update({ freeMessagesPerDay: 1 });
  });
  afterAll(async () => t?.close());

  it("answers with the caring message even when today's free messages are used up", async () => {
    const { token } = await signUp(t);
    expect((await send(t, token, { message: "Hi there" })).statusCode).toBe(200);
    expect((await send(t, token, { message: "Hi again" })).statusCode).toBe(403);
    const response = await send(t, token, { message: OFFLINE_CRISIS_SENTENCE });
    expect(response.statusCode, response.body).toBe(200);
    const result = sendMessageResponseSchema.parse(response.json()).data;
    expect(result.crisis?.resources).toEqual(DEFAULT_CRISIS_RESOURCES);
    expect(result.remaining).toBe(0);
    expect(await usageOf(t, token)).toMatchObject({ sentToday: 1 });
  });

  it("lists the operator's resources, validated by field", async () => {
    const { token } = await signUp(t);
    const resources = [
      { country: "ca", name: "Talk Suicide Canada", contact: "Call or text 988", url: "" },
    ];
    await t.app.settings.update({ crisisResources: resources });
    const result = sendMessageResponseSchema.parse(
      (await send(t, token, { message: OFFLINE_CRISIS_SENTENCE })).json(),
    ).data;
    expect(result.response).toContain("Talk Suicide Canada: Call or text 988");
    expect(result.crisis?.resources[0]?.name).toBe("Talk Suicide Canada");

    const admin = await adminSession(t);
    const current = (await call(t, "GET", "/api/admin/settings", { token: admin.token })).json()
      .data;
    const { apiKeys: _keys, providers: _providers, keyTests: _tests, ...rest } = current;
    const bad = await call(t, "PUT", "/api/settings", {
      token: admin.token,
      body: {
        ...rest,
        apiKeys: { openai: "", stripe: { secret: "", publishable: "" }, elevenLabs: "" },
        crisisResources: [{ country: "USA", name: "X", contact: "", url: "" }],
      },
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.body).toContain("Country must be two-letter country codes");
  });
});
