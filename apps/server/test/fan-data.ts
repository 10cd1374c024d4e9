import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { chatMessages, conversations, voiceCalls } from "../src/db/schema/index.ts";
import { call, signUp } from "./accounts.ts";
import { createPackage, createPlan, sandboxBuy } from "./billing.ts";
import type { TestApp } from "./create-test-app.ts";

/** A fan with some of every kind of data: messages, a call with its transcript, payments... */
export interface SeededFan {
  token: string;
  password: string;
  id: string;
  email: string;
  name: string;
  /** A word only this fan wrote (in a chat message and in a call turn). */
  word: string;
  conversationId: string;
  callId: string;
}

/**
 * Signs a fan up and gives them data of every kind through the API where there is one (chat,
 * sandbox purchases of a package and a plan), and by hand where the path needs a live socket
 * (a finished call with its transcript) or is another feature's (a product notice).
 */
export async function seedFan(
  t: TestApp,
  adminToken: string,
  options: { name?: string; plan?: boolean } = {},
): Promise<SeededFan> {
  const word = `zq${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const name = options.name ?? `Fan ${word.slice(2, 8)}`;
  const fan = await signUp(t, { name });
  const sent = await call(t, "POST", "/api/chat/message", {
    token: fan.token,
    body: { message: `I live in ${word} and I love hiking` },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const db = t.app.database.db;
  const [conversation] = await db
    .select()
    .from(conversations)
    .where(eq(conversations.userId, fan.user.id));
  if (!conversation) throw new Error("no conversation");
  await db.insert(chatMessages).values({
    conversationId: conversation.id,
    userId: fan.user.id,
    sender: "product",
    productKind: "ai-notice",
    content: "You are talking with an AI.",
  });
  const [callRow] = await db
    .insert(voiceCalls)
    .values({
      userId: fan.user.id,
      startedAt: new Date(Date.now() - 90_000),
      endedAt: new Date(Date.now() - 10_000),
      durationSeconds: 80,
      minutesCharged: 2,
      creditsPerMinute: 5,
      creditsConsumed: 10,
      endReason: "hangup",
    })
    .returning();
  if (!callRow) throw new Error("no call");
  await db.insert(chatMessages).values([
    {
      conversationId: conversation.id,
      userId: fan.user.id,
      sender: "user",
      content: `On the phone about ${word}`,
      callId: callRow.id,
    },
    {
      conversationId: conversation.id,
      userId: fan.user.id,
      sender: "ai",
      content: "Lovely to hear your voice.",
      callId: callRow.id,
    },
  ]);
  const pack = await createPackage(t, adminToken, {
    name: `Pack ${randomUUID().slice(0, 6)}`,
    credits: 50,
    price: 5,
  });
  const bought = await sandboxBuy(t, fan.token, { packageId: pack._id });
  expect(bought.paid.statusCode, bought.paid.body).toBe(200);
  if (options.plan !== false) {
    const plan = await createPlan(t, adminToken, {
      name: `Plan ${randomUUID().slice(0, 6)}`,
      price: 10,
      credits: 20,
    });
    const subscribed = await sandboxBuy(t, fan.token, { planId: plan._id });
    expect(subscribed.paid.statusCode, subscribed.paid.body).toBe(200);
  }
  return {
    token: fan.token,
    password: fan.password,
    id: fan.user.id,
    email: fan.user.email,
    name,
    word,
    conversationId: conversation.id,
    callId: callRow.id,
  };
}
