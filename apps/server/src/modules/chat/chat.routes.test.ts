import type { AddressInfo } from "node:net";
import {
  aiNoticeText,
  CHAT_MESSAGES,
  type ChatMessage,
  chatUsageResponseSchema,
  conversationsResponseSchema,
  dailyLimitErrorSchema,
  messagesPageResponseSchema,
  sendMessageResponseSchema,
} from "@twinline/contracts";
import {
  FAKE_OPENAI_KEY,
  type FakeOpenAi,
  startFakeHttpServer,
  startFakeOpenAi,
} from "@twinline/fakes";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, csrfFor, messageOf, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { chatDailyUsage, chatMessages } from "../../db/schema/index.ts";
import { utcDay } from "../../lib/utc-day.ts";
import { createAiTrainingRepository } from "../ai-training/repository.ts";
import { createChatRepository } from "./repository.ts";

const FAKE_REPLY = "Hello from the fake model.";

/** The fan's and the persona's messages (the product's AI notice: ai-notice.routes.test.ts). */
const withoutNotices = <T extends { sender: string; content: string }>(messages: T[]) =>
  messages.filter((message) => message.sender !== "product");

interface SseEvent {
  event: string;
  data: unknown;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "null";
      return { event, data: JSON.parse(data) };
    });
}

const send = (t: TestApp, token: string, body: object, stream = false) =>
  call(t, "POST", "/api/chat/message", {
    token,
    body,
    ...(stream ? { headers: { accept: "text/event-stream" } } : {}),
  });

async function usageOf(t: TestApp, token: string) {
  const response = await call(t, "GET", "/api/chat/usage", { token });
  expect(response.statusCode).toBe(200);
  return chatUsageResponseSchema.parse(response.json()).data;
}

/** The fake provider's last chat request, as sent by the SDK. */
function lastCompletion(fake: FakeOpenAi) {
  const request = fake.requests.filter((r) => r.path === "/v1/chat/completions").at(-1);
  return JSON.parse(request?.body.toString() ?? "{}") as {
    messages: Array<{ role: string; content: string }>;
    stream: boolean;
    max_tokens?: number;
  };
}

describe("chat with an OpenAI-compatible provider (real SDK, local fake server)", () => {
  let t: TestApp;
  let fake: FakeOpenAi;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await createTestApp({
      env: { OPENAI_API_KEY: FAKE_OPENAI_KEY, OPENAI_BASE_URL: fake.baseUrl },
      chatProviderTimeoutMs: 1_500,
    });
    await t.app.settings.update({ aiProfile: { name: "Nova Star" } as never });
  });
  afterAll(async () => {
    // The abort test's client may leave its socket open: it must not hold the close up.
    t?.app.server.closeAllConnections();
    await t?.close();
    await fake?.close();
  });

  it("refuses a blank message and one over maxWordsPerMessage, counting nothing", async () => {
    const { token } = await signUp(t);
    for (const message of ["", "   \n\t "]) {
      const response = await send(t, token, { message });
      expect(response.statusCode).toBe(400);
      expect(messageOf(response)).toBe(CHAT_MESSAGES.emptyMessage);
    }
    await t.app.settings.update({ maxWordsPerMessage: 3 });
    try {
      const tooLong = await send(t, token, { message: "one two  three\nfour" });
      expect(tooLong.statusCode).toBe(400);
      expect(messageOf(tooLong)).toBe("Messages cannot exceed 3 words");
      const fits = await send(t, token, { message: " one two three " });
      expect(fits.statusCode, fits.body).toBe(200);
    } finally {
      await t.app.settings.update({ maxWordsPerMessage: 500 });
    }
    expect((await usageOf(t, token)).sentToday).toBe(1);
  });

  it("answers JSON: the reply, both saved messages, a new conversation, remaining today", async () => {
    const { token } = await signUp(t);
    const response = await send(t, token, { message: "  Who are you, really?  " });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = sendMessageResponseSchema.parse(response.json());
    expect(data.response).toBe(FAKE_REPLY);
    expect(data.userMessage).toMatchObject({ sender: "user", content: "Who are you, really?" });
    expect(data.aiMessage).toMatchObject({ sender: "ai", content: FAKE_REPLY });
    expect(data.userMessage.conversationId).toBe(data.conversationId);
    expect(data.aiMessage.timestamp > data.userMessage.timestamp).toBe(true);
    expect(data.remaining).toBe(4);

    // The system text carries the persona; the new message goes last.
    const sent = lastCompletion(fake);
    expect(sent.stream).toBe(true);
    expect(sent.max_tokens).toBeGreaterThan(0);
    expect(sent.messages[0]?.role).toBe("system");
    expect(sent.messages[0]?.content).toContain("You are Nova Star.");
    expect(sent.messages.slice(1)).toEqual([{ role: "user", content: "Who are you, really?" }]);

    const list = conversationsResponseSchema.parse(
      (await call(t, "GET", "/api/chat/conversations", { token })).json(),
    );
    expect(list.data).toEqual([
      expect.objectContaining({
        _id: data.conversationId,
        title: "Who are you, really?",
        messageCount: 2,
      }),
    ]);

    // The next message of that conversation sends its history, in order.
    const second = await send(t, token, {
      message: "And what do you like?",
      conversationId: data.conversationId,
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.conversationId).toBe(data.conversationId);
    expect(lastCompletion(fake).messages.slice(1)).toEqual([
      { role: "user", content: "Who are you, really?" },
      { role: "assistant", content: FAKE_REPLY },
      { role: "user", content: "And what do you like?" },
    ]);
  });

  it("sends the AI training's system prompt and the best knowledge passages", async () => {
    const training = createAiTrainingRepository(t.app.database.db);
    await training.setSystemPrompt("Be warm and brief.");
    await training.insertDocument({ originalName: "bio.pdf", storedName: "bio-test", size: 100 }, [
      "Nova grew up in Lisbon and her favourite food is grilled sardines.",
      "Nova plays the cello every morning.",
    ]);
    try {
      const { token } = await signUp(t);
      const response = await send(t, token, { message: "What food do you love? Sardines?" });
      expect(response.statusCode, response.body).toBe(200);
      const system = lastCompletion(fake).messages[0]?.content ?? "";
      expect(system).toMatch(/^You are Nova Star\.\n\nBe warm and brief\./);
      expect(system).toContain("grilled sardines");
      expect(system).not.toContain("cello");
    } finally {
      await training.setSystemPrompt("");
    }
  });

  it("streams server-sent events: each token in order, then done with the saved message", async () => {
    const { token } = await signUp(t);
    const response = await send(t, token, { message: "Stream it" }, true);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(response.headers["cache-control"]).toMatch(/no-cache/);
    expect(response.headers["x-accel-buffering"]).toBe("no");
    const events = parseSse(response.body);
    // The product's AI notice first (a new conversation), then the reply.
    expect(events.map((e) => e.event)).toEqual([
      "notice",
      "token",
      "token",
      "token",
      "token",
      "token",
      "done",
    ]);
    expect(events[0]?.data).toMatchObject({
      sender: "product",
      content: aiNoticeText("Nova Star"),
    });
    expect(events.slice(1, 6).map((e) => (e.data as { text: string }).text)).toEqual([
      "Hello",
      " from",
      " the",
      " fake",
      " model.",
    ]);
    const done = events.at(-1)?.data as { response: string; aiMessage: { _id: string } };
    expect(done.response).toBe(FAKE_REPLY);
    const page = messagesPageResponseSchema.parse(
      (await call(t, "GET", "/api/chat/messages", { token })).json(),
    );
    expect(page.data.messages.map((m) => m.content)).toEqual([
      "Stream it",
      aiNoticeText("Nova Star"),
      FAKE_REPLY,
    ]);
    expect(page.data.messages[2]?._id).toBe(done.aiMessage._id);
  });

  it("a conversation of someone else, or none, is 404; a malformed id 400", async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const first = await send(t, owner.token, { message: "mine" });
    const id = first.json().data.conversationId as string;
    const before = await usageOf(t, other.token);

    const foreign = await send(t, other.token, { message: "hi", conversationId: id });
    expect(foreign.statusCode).toBe(404);
    expect(messageOf(foreign)).toBe(CHAT_MESSAGES.conversationNotFound);
    const unknown = await send(t, other.token, {
      message: "hi",
      conversationId: "00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.statusCode).toBe(404);
    expect((await usageOf(t, other.token)).sentToday).toBe(before.sentToday);

    for (const [method, url] of [
      ["GET", `/api/chat/conversations/${id}/messages`],
      ["DELETE", `/api/chat/conversations/${id}`],
    ] as const) {
      expect((await call(t, method, url, { token: other.token })).statusCode).toBe(404);
    }
    for (const [method, url] of [
      ["GET", "/api/chat/conversations/not-a-uuid/messages"],
      ["DELETE", "/api/chat/conversations/not-a-uuid"],
    ] as const) {
      expect((await call(t, method, url, { token: other.token })).statusCode).toBe(400);
    }
    const bad = await send(t, other.token, { message: "hi", conversationId: "nope" });
    expect(bad.statusCode).toBe(400);
    // The owner still has it.
    const mine = await call(t, "GET", `/api/chat/conversations/${id}/messages`, {
      token: owner.token,
    });
    // The fan's message, the AI notice, the reply.
    expect(mine.json().data.messages).toHaveLength(3);
  });

  it("pages messages: page 1 the newest, oldest to newest inside a page", async () => {
    const { token, user } = await signUp(t);
    const repository = createChatRepository(t.app.database.db);
    const first = await repository.startConversation(user.id, "one", "m1");
    for (let i = 2; i <= 15; i++)
      await repository.addMessage(first.conversationId, user.id, "user", `m${i}`);
    const second = await repository.startConversation(user.id, "two", "m16");
    for (let i = 17; i <= 25; i++) {
      await repository.addMessage(second.conversationId, user.id, i % 2 ? "ai" : "user", `m${i}`);
    }

    const page = async (url: string, query?: Record<string, string>) => {
      const response = await call(t, "GET", url, { token, ...(query ? { query } : {}) });
      expect(response.statusCode, response.body).toBe(200);
      return messagesPageResponseSchema.parse(response.json()).data;
    };
    const one = await page("/api/chat/messages");
    expect(one.pagination).toEqual({ total: 25, page: 1, limit: 20, pages: 2 });
    expect(one.messages.map((m) => m.content)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${i + 6}`),
    );
    const two = await page("/api/chat/messages", { page: "2" });
    expect(two.messages.map((m) => m.content)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
    const small = await page("/api/chat/messages", { page: "3", limit: "10" });
    expect(small.pagination).toEqual({ total: 25, page: 3, limit: 10, pages: 3 });
    expect(small.messages.map((m) => m.content)).toEqual(["m1", "m2", "m3", "m4", "m5"]);

    const conversation = await page(`/api/chat/conversations/${first.conversationId}/messages`, {
      limit: "4",
    });
    expect(conversation.pagination).toEqual({ total: 15, page: 1, limit: 4, pages: 4 });
    expect(conversation.messages.map((m) => m.content)).toEqual(["m12", "m13", "m14", "m15"]);

    const bad = await call(t, "GET", "/api/chat/messages", { token, query: { page: "0" } });
    expect(bad.statusCode).toBe(400);
    const tooMany = await call(t, "GET", "/api/chat/messages", { token, query: { limit: "1000" } });
    expect(tooMany.statusCode).toBe(400);
  });

  it("deletes a conversation and clears the history of that user only", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const first = (await send(t, a.token, { message: "first" })).json().data.conversationId;
    await send(t, a.token, { message: "second" });
    await send(t, b.token, { message: "b's" });

    const deleted = await call(t, "DELETE", `/api/chat/conversations/${first}`, { token: a.token });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ success: true, message: CHAT_MESSAGES.conversationDeleted });
    const again = await call(t, "DELETE", `/api/chat/conversations/${first}`, { token: a.token });
    expect(again.statusCode).toBe(404);
    const left = (await call(t, "GET", "/api/chat/messages", { token: a.token })).json().data;
    expect(withoutNotices<ChatMessage>(left.messages).map((m) => m.content)).toEqual([
      "second",
      FAKE_REPLY,
    ]);

    const cleared = await call(t, "DELETE", "/api/chat/clear-history", { token: a.token });
    expect(cleared.json()).toEqual({ success: true, message: CHAT_MESSAGES.historyCleared });
    const none = (await call(t, "GET", "/api/chat/messages", { token: a.token })).json().data;
    expect(none).toEqual({ messages: [], pagination: { total: 0, page: 1, limit: 20, pages: 0 } });
    expect(
      (await call(t, "GET", "/api/chat/conversations", { token: a.token })).json().data,
    ).toEqual([]);
    // Clearing does not give today's messages back; the other user keeps theirs.
    expect(await usageOf(t, a.token)).toMatchObject({ total: 2, sentToday: 2, remaining: 3 });
    const bMessages = (await call(t, "GET", "/api/chat/messages", { token: b.token })).json().data;
    // b's message, the AI notice, the reply.
    expect(bMessages.pagination.total).toBe(3);
  });

  it("the daily limit: 403 with dailyLimit after freeMessagesPerDay, streaming or not", async () => {
    const { token } = await signUp(t);
    expect(await usageOf(t, token)).toEqual({
      total: 0,
      sentToday: 0,
      dailyLimit: 5,
      remaining: 5,
    });
    for (let i = 0; i < 5; i++) {
      const response = await send(t, token, { message: `message ${i}` });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.remaining).toBe(4 - i);
    }
    for (const stream of [false, true]) {
      const refused = await send(t, token, { message: "one more" }, stream);
      expect(refused.statusCode).toBe(403);
      expect(refused.headers["content-type"]).toMatch(/^application\/json/);
      expect(dailyLimitErrorSchema.parse(refused.json())).toEqual({
        success: false,
        message: CHAT_MESSAGES.dailyLimitError,
        error: "Daily free message limit reached",
        dailyLimit: 5,
      });
    }
    expect(await usageOf(t, token)).toEqual({
      total: 5,
      sentToday: 5,
      dailyLimit: 5,
      remaining: 0,
    });
    // The refused messages were not saved.
    const page = (await call(t, "GET", "/api/chat/messages", { token })).json().data;
    // Five messages, five replies, and the AI notice of each of the five new conversations.
    expect(page.pagination.total).toBe(15);
  });

  it("the day is the UTC day: yesterday's count does not limit today", async () => {
    const { token, user } = await signUp(t);
    const yesterday = utcDay(new Date(Date.now() - 86_400_000));
    await t.app.database.db
      .insert(chatDailyUsage)
      .values({ userId: user.id, day: yesterday, count: 5 });
    expect(await usageOf(t, token)).toMatchObject({ total: 5, sentToday: 0, remaining: 5 });
    expect((await send(t, token, { message: "today" })).statusCode).toBe(200);
  });

  it("20 parallel sends with 5 left: exactly 5 answered, 15 refused with 403", async () => {
    const { token, user } = await signUp(t);
    await csrfFor(t);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(t, token, { message: `parallel ${i}` })),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    const answers = responses.map((r) => `${r.statusCode} ${r.body.slice(0, 120)}`).join("\n");
    expect(
      statuses.filter((s) => s === 200),
      answers,
    ).toHaveLength(5);
    expect(statuses.filter((s) => s === 403)).toHaveLength(15);
    const [row] = await t.app.database.db
      .select()
      .from(chatDailyUsage)
      .where(and(eq(chatDailyUsage.userId, user.id), eq(chatDailyUsage.day, utcDay(new Date()))));
    expect(row?.count).toBe(5);
    const saved = await t.app.database.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.userId, user.id));
    expect(saved.filter((m) => m.sender === "user")).toHaveLength(5);
  });

  it("the admin's user detail shows today's message count", async () => {
    const admin = await adminSession(t);
    const { token, user } = await signUp(t);
    await send(t, token, { message: "one" });
    await send(t, token, { message: "two" });
    const detail = await call(t, "GET", `/api/admin/users/${user.id}`, { token: admin.token });
    expect(detail.json().data.dailyMessageCount).toBe(2);
  });

  it("a client that goes away mid-stream cancels the provider request", async () => {
    const { token, user } = await signUp(t);
    const csrf = await csrfFor(t);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    fake.hang = true;
    try {
      const controller = new AbortController();
      const response = await fetch(`http://127.0.0.1:${port}/api/chat/message`, {
        method: "POST",
        signal: controller.signal,
        headers: {
          accept: "text/event-stream",
          "content-type": "application/json",
          authorization: `Bearer ${token}`,
          "csrf-token": csrf.token,
          cookie: `_csrf=${csrf.cookie}`,
        },
        body: JSON.stringify({ message: "Tell me a long story" }),
      });
      expect(response.status).toBe(200);
      const reader = response.body?.getReader();
      const first = await reader?.read();
      // The stream began (the AI notice of the new conversation, or the first token).
      expect(new TextDecoder().decode(first?.value)).toMatch(/event: (notice|token)/);
      controller.abort();
      // The fake provider sees its connection closed.
      await fake.clientClosed;
    } finally {
      fake.hang = false;
    }
    // What was delivered is kept (decision 0011): the user's message and the partial reply.
    const db = t.app.database.db;
    let saved: Array<{ sender: string; content: string }> = [];
    for (let i = 0; i < 50 && withoutNotices(saved).length < 2; i++) {
      saved = await db.select().from(chatMessages).where(eq(chatMessages.userId, user.id));
      if (withoutNotices(saved).length < 2) await new Promise((r) => setTimeout(r, 20));
    }
    expect(
      withoutNotices(saved)
        .map((m) => [m.sender, m.content])
        .sort(),
    ).toEqual([
      ["ai", "Hello"],
      ["user", "Tell me a long story"],
    ]);
    expect((await usageOf(t, token)).sentToday).toBe(1);
  });

  it("a provider that stops answering times out: 502, the partial reply dropped, the count given back", async () => {
    const { token } = await signUp(t);
    fake.hang = true;
    try {
      const json = await send(t, token, { message: "Slow one" });
      expect(json.statusCode).toBe(502);
      expect(messageOf(json)).toBe(CHAT_MESSAGES.aiFailure);
      const stream = await send(t, token, { message: "Slow two" }, true);
      expect(parseSse(stream.body).map((e) => e.event)).toEqual(["notice", "token", "error"]);
    } finally {
      fake.hang = false;
    }
    const page = (await call(t, "GET", "/api/chat/messages", { token })).json().data;
    expect(withoutNotices<ChatMessage>(page.messages).map((m) => m.content)).toEqual([
      "Slow one",
      "Slow two",
    ]);
    expect((await usageOf(t, token)).sentToday).toBe(0);
  });
});

describe("chat when the provider fails", () => {
  let t: TestApp;
  let failing: Awaited<ReturnType<typeof startFakeHttpServer>>;

  beforeAll(async () => {
    failing = await startFakeHttpServer((_request, response) => {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "boom", type: "server_error" } }));
    });
    t = await createTestApp({
      env: { OPENAI_API_KEY: FAKE_OPENAI_KEY, OPENAI_BASE_URL: `${failing.origin}/v1` },
    });
  });
  afterAll(async () => {
    await t?.close();
    await failing?.close();
  });

  it("502 Failed to get AI response after one retry; the user's message kept, the count given back", async () => {
    const { token } = await signUp(t);
    const response = await send(t, token, { message: "Are you there?" });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ success: false, message: CHAT_MESSAGES.aiFailure });
    expect(failing.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(2);

    const page = (await call(t, "GET", "/api/chat/messages", { token })).json().data;
    // Marked, so the chat shows the failure after a reload too (the AI notice stays given).
    expect(withoutNotices(page.messages)).toEqual([
      expect.objectContaining({ sender: "user", content: "Are you there?", replyFailed: true }),
    ]);
    expect(await usageOf(t, token)).toMatchObject({ sentToday: 0, remaining: 5 });
  });

  it("streaming: an error event, the message kept", async () => {
    const { token } = await signUp(t);
    const response = await send(t, token, { message: "Hello?" }, true);
    expect(response.statusCode).toBe(200);
    expect(parseSse(response.body).filter((e) => e.event !== "notice")).toEqual([
      { event: "error", data: { message: CHAT_MESSAGES.aiFailure, status: 502 } },
    ]);
    const page = (await call(t, "GET", "/api/chat/messages", { token })).json().data;
    expect(withoutNotices(page.messages)).toEqual([
      expect.objectContaining({ content: "Hello?", replyFailed: true }),
    ]);
    expect((await usageOf(t, token)).sentToday).toBe(0);
  });
});

describe("chat with no key: the offline responder", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.settings.update({ aiProfile: { name: "Nova Star" } as never });
  });
  afterAll(() => t?.close());

  it("answers as the persona, labelled offline, streamed word by word", async () => {
    const { token } = await signUp(t);
    const response = await send(t, token, { message: "Hi there" }, true);
    const events = parseSse(response.body);
    expect(events.filter((e) => e.event === "token").length).toBeGreaterThan(3);
    const done = events.at(-1);
    expect(done?.event).toBe("done");
    expect((done?.data as { response?: string } | undefined)?.response).toMatch(
      /^\(Offline mode\) Hi, I'm Nova Star\./,
    );
  });
});
