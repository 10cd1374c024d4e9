import {
  AI_NOTICE_REPEAT_MS,
  aiNoticeText,
  BREAK_REMINDER_TEXT,
  type ChatMessage,
  chatUsageResponseSchema,
  conversationsResponseSchema,
  messagesPageResponseSchema,
  SITTING_GAP_MS,
  sendMessageResponseSchema,
} from "@twinline/contracts";
import { FAKE_OPENAI_KEY, type FakeOpenAi, startFakeOpenAi } from "@twinline/fakes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { balanceOf } from "../../../test/credits.ts";
import { sentChatCompletions } from "../../../test/fake-providers.ts";
import { createManualClock, type ManualClock } from "../../../test/manual-clock.ts";
import { createAiNotices } from "./ai-notice.ts";
import { toChatMessage } from "./service.ts";

const PERSONA = "Nova Star";
const NOTICE = aiNoticeText(PERSONA);
const MINUTE = 60_000;

let t: TestApp;
let fake: FakeOpenAi;
let clock: ManualClock;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  clock = createManualClock(Date.UTC(2026, 4, 1, 9));
  t = await createTestApp({
    env: { OPENAI_API_KEY: FAKE_OPENAI_KEY, OPENAI_BASE_URL: fake.baseUrl },
    noticeClock: clock,
  });
  await t.app.settings.update({ aiProfile: { name: PERSONA } as never, freeMessagesPerDay: 50 });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function send(token: string, message: string, conversationId?: string) {
  const response = await call(t, "POST", "/api/chat/message", {
    token,
    body: { message, ...(conversationId ? { conversationId } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return sendMessageResponseSchema.parse(response.json()).data;
}

async function storedMessages(token: string, conversationId: string): Promise<ChatMessage[]> {
  const response = await call(t, "GET", `/api/chat/conversations/${conversationId}/messages`, {
    token,
    query: { limit: "100" },
  });
  expect(response.statusCode).toBe(200);
  return messagesPageResponseSchema.parse(response.json()).data.messages;
}

/** Every text the model was sent, over every request so far. */
const sentToModel = () =>
  sentChatCompletions(fake).flatMap((request) => request.messages.map((m) => m.content));

const kinds = (notices: ChatMessage[] | undefined) =>
  (notices ?? []).map((notice) => [notice.sender, notice.productKind, notice.content]);

describe("the AI notice in the chat", () => {
  it("is stored at the start of a conversation, after the fan's message, free and never sent to the model", async () => {
    const fan = await signUp(t);
    const credits = await balanceOf(t, fan.user.id);
    const first = await send(fan.token, "Hi there, who are you?");
    expect(kinds(first.notices)).toEqual([["product", "ai-notice", NOTICE]]);

    // Stored: between the fan's message and the reply, the product's own message.
    const stored = await storedMessages(fan.token, first.conversationId);
    expect(stored.map((message) => [message.sender, message.productKind ?? null])).toEqual([
      ["user", null],
      ["product", "ai-notice"],
      ["ai", null],
    ]);
    // Never sent to the model, now or in the next message's history.
    await clock.advance(MINUTE);
    const second = await send(fan.token, "Tell me more.", first.conversationId);
    expect(second.notices).toEqual([]);
    expect(sentToModel().some((text) => text.includes("is an AI and not a human being"))).toBe(
      false,
    );
    // It costs nothing: two free messages used, the credits as they were, two messages counted.
    const usage = await call(t, "GET", "/api/chat/usage", { token: fan.token });
    expect(chatUsageResponseSchema.parse(usage.json()).data).toMatchObject({
      sentToday: 2,
      remaining: 48,
    });
    expect(await balanceOf(t, fan.user.id)).toBe(credits);
    const conversations = await call(t, "GET", "/api/chat/conversations", { token: fan.token });
    expect(conversationsResponseSchema.parse(conversations.json()).data[0]?.messageCount).toBe(4);

    // A new conversation starts with the notice again.
    const other = await send(fan.token, "A new topic.");
    expect(kinds(other.notices)).toEqual([["product", "ai-notice", NOTICE]]);

    // The admin's chat log lists it with its kind.
    const admin = await adminSession(t);
    const log = await call(t, "GET", `/api/admin/chat-logs/${first.conversationId}/messages`, {
      token: admin.token,
    });
    const logged = messagesPageResponseSchema.parse(log.json()).data.messages;
    expect(logged.find((message) => message.sender === "product")).toMatchObject({
      productKind: "ai-notice",
      content: NOTICE,
    });
  });

  it("streams the notice before the reply", async () => {
    const fan = await signUp(t);
    const response = await call(t, "POST", "/api/chat/message", {
      token: fan.token,
      body: { message: "Hello!" },
      headers: { accept: "text/event-stream" },
    });
    const events = [...response.body.matchAll(/^event: (.*)$/gm)].map((match) => match[1]);
    expect(events[0]).toBe("notice");
    expect(events.indexOf("notice")).toBeLessThan(events.indexOf("token"));
    expect(events.at(-1)).toBe("done");
  });

  it("repeats after 3 hours of continued use, with a break reminder, exactly on the clock", async () => {
    const fan = await signUp(t);
    const start = await send(fan.token, "Let us talk for a long time.");
    expect(start.notices).toHaveLength(1);
    const conversationId = start.conversationId;
    // Active every 20 minutes: no notice until 3 hours have passed since the last one.
    for (let minutes = 20; minutes < 180; minutes += 20) {
      await clock.advance(20 * MINUTE);
      expect((await send(fan.token, `Still here at ${minutes}.`, conversationId)).notices).toEqual(
        [],
      );
    }
    await clock.advance(AI_NOTICE_REPEAT_MS - 160 * MINUTE - 1);
    expect((await send(fan.token, "Just before.", conversationId)).notices).toEqual([]);
    await clock.advance(1);
    const due = await send(fan.token, "Three hours now.", conversationId);
    expect(kinds(due.notices)).toEqual([
      ["product", "ai-notice", NOTICE],
      ["product", "break-reminder", BREAK_REMINDER_TEXT],
    ]);
    const stored = await storedMessages(fan.token, conversationId);
    expect(stored.filter((message) => message.sender === "product")).toHaveLength(3);
  });

  it("a break longer than the sitting gap starts a new sitting: the notice, no reminder", async () => {
    const fan = await signUp(t);
    const start = await send(fan.token, "Morning!");
    await clock.advance(SITTING_GAP_MS + 1);
    const back = await send(fan.token, "Back again.", start.conversationId);
    expect(kinds(back.notices)).toEqual([["product", "ai-notice", NOTICE]]);
    await clock.advance(SITTING_GAP_MS);
    expect((await send(fan.token, "Still here.", start.conversationId)).notices).toEqual([]);
  });
  it("several instances stepping one fan at once give each notice once, whatever each last saw", async () => {
    const fan = await signUp(t);
    const start = await send(fan.token, "Hello from two tabs.");
    // Two more instances over the same database, each having seen the fan's sitting once.
    const others = [0, 1].map(() =>
      createAiNotices({ db: t.app.database.db, clock, settings: t.app.settings }),
    );
    for (const other of others) {
      await clock.advance(MINUTE);
      expect(
        (await other.forChatMessage(fan.user.id, start.conversationId, false)).messages,
      ).toEqual([]);
    }
    // This app's own view of the sitting is stale now; so is the first instance's. A new
    // sitting begins: its notice is due once.
    await clock.advance(SITTING_GAP_MS + 1);
    const given = await Promise.all([
      send(fan.token, "Tab one.", start.conversationId).then((data) => data.notices ?? []),
      ...others.flatMap((other) =>
        [0, 1].map(async () =>
          (await other.forChatMessage(fan.user.id, start.conversationId, false)).messages.map(
            (row) => toChatMessage(row),
          ),
        ),
      ),
    ]);
    expect(kinds(given.flat())).toEqual([["product", "ai-notice", NOTICE]]);
    const stored = await storedMessages(fan.token, start.conversationId);
    expect(kinds(stored.filter((message) => message.sender === "product"))).toEqual([
      ["product", "ai-notice", NOTICE],
      ["product", "ai-notice", NOTICE],
    ]);
  });
});
