import {
  aiNoticeText,
  CHAT_LOGS_CSV_HEADER,
  callDetailResponseSchema,
  chatLogsResponseSchema,
  csvLine,
  memoryResponseSchema,
  messagesPageResponseSchema,
  sendMessageResponseSchema,
} from "@twinline/contracts";
import { FAKE_OPENAI_KEY, type FakeOpenAi, makeWavTone } from "@twinline/fakes";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../../test/accounts.ts";
import type { TestApp } from "../../../test/create-test-app.ts";
import { sentChatCompletions } from "../../../test/fake-providers.ts";
import { startVoiceTestApp, type VoiceTestApp } from "../../../test/voice-app.ts";
import { connectVoice } from "../../../test/voice-client.ts";
import { chatMessages, creditLedger, fanMemory, users } from "../../db/schema/index.ts";
import { createMemoryRepository } from "./repository.ts";
import { SUMMARY_JOB } from "./service.ts";

const REPLY = ["Nice to hear from you."];
const UTTERANCE = makeWavTone(1);

let voice: VoiceTestApp;
let t: TestApp;
let origin: string;
let openai: FakeOpenAi;

beforeAll(async () => {
  // The summary's refresh job runs when a test says so (summarize), not behind its back.
  voice = await startVoiceTestApp({ jobWorkers: false });
  ({ t, origin, openai } = voice);
  await t.app.settings.update({
    freeMessagesPerDay: 1_000,
    aiProfile: { name: "Mira Vale" } as never,
  });
});

afterAll(() => voice?.close());

beforeEach(() => {
  openai.reply = [...REPLY];
  openai.transcription = "Hello there.";
});

/** The last reply prompt (not a summary update): its system text and turns. */
function lastPrompt() {
  const sent = sentChatCompletions(openai)
    .filter((entry) => !entry.messages[0]?.content.includes("private notes"))
    .at(-1);
  if (!sent) throw new Error("No prompt was sent");
  return { system: sent.messages[0]?.content ?? "", turns: sent.messages.slice(1) };
}

async function send(token: string, message: string, conversationId?: string) {
  const response = await call(t, "POST", "/api/chat/message", {
    token,
    body: { message, ...(conversationId ? { conversationId } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return sendMessageResponseSchema.parse(response.json()).data;
}

/** A call of `token`'s fan in which they say each of `said`; answers the call's id. */
async function placeCall(token: string, said: string[]): Promise<string> {
  const client = await connectVoice(origin, token);
  const started = await client.next("call_started");
  for (const words of said) {
    openai.transcription = words;
    client.socket.send(UTTERANCE);
    expect(await client.next("transcription")).toMatchObject({ text: words });
    await client.next("audio_complete");
    // The turns are recorded once the reply has been spoken (the AI notice is there before).
    await expect
      .poll(
        async () =>
          (await transcript(token, started.callId)).filter((turn) => turn.sender !== "product")
            .length,
      )
      .toBeGreaterThan(0);
  }
  client.sendJson({ type: "end" });
  await client.next("call_ended");
  await client.closed;
  return started.callId;
}

async function transcript(token: string, callId: string) {
  const response = await call(t, "GET", `/api/voice-call/calls/${callId}`, { token });
  expect(response.statusCode, response.body).toBe(200);
  return callDetailResponseSchema.parse(response.json()).transcript;
}

/** Adds `count` filler exchanges to a conversation in one statement (weeks of small talk). */
async function filler(userId: string, conversationId: string, count: number) {
  await t.app.database.db.execute(sql`
    insert into ${chatMessages} (conversation_id, user_id, sender, content, created_at)
    select ${conversationId}, ${userId}, case when n % 2 = 0 then 'user' else 'ai' end::chat_sender,
      case when n % 2 = 0 then 'Tell me about film number ' || n else 'Film ' || n || ' is a classic.' end,
      clock_timestamp() + n * interval '1 millisecond'
    from generate_series(1, ${count}) as n`);
}

/** The refreshes the replies queued, run now (the job's worker polls in production). */
async function summarize(): Promise<void> {
  await t.app.memory.idle();
  await t.app.jobs.runDue(SUMMARY_JOB);
}

/** The fan's summary jobs on the queue: state and attempts, oldest first. */
async function summaryJobs(userId: string, queue = SUMMARY_JOB) {
  const result = (await t.app.database.db.execute(sql`
    select id, state, retry_count as "retryCount" from pgboss.job
    where name = ${queue} and data->>'userId' = ${userId} order by created_on, id`)) as unknown as {
    rows: { id: string; state: string; retryCount: number }[];
  };
  return result.rows;
}

async function memoryOf(token: string) {
  const response = await call(t, "GET", "/api/memory", { token });
  expect(response.statusCode, response.body).toBe(200);
  return memoryResponseSchema.parse(response.json()).data;
}

describe("one conversation across chat and calls", () => {
  it("a call's turns are stored in the fan's conversation, shown in the chat, and in the next prompts", async () => {
    const fan = await signUp(t);
    const first = await send(fan.token, "Hi Mira, good morning!");
    const callId = await placeCall(fan.token, ["My dog is called Biscuit and I love sailing."]);

    // The call's transcript: the AI notice, the fan's words and the persona's spoken reply.
    expect(
      (await transcript(fan.token, callId)).map((turn) => [turn.sender, turn.content]),
    ).toEqual([
      ["product", aiNoticeText("Mira Vale")],
      ["user", "My dog is called Biscuit and I love sailing."],
      ["ai", REPLY.join("")],
    ]);

    // The chat shows them in place, marked with the call and its duration.
    const page = await call(t, "GET", "/api/chat/messages", { token: fan.token });
    const messages = messagesPageResponseSchema.parse(page.json()).data.messages;
    // The chat's message, its AI notice and the reply; then the call's notice and turns.
    expect(messages.map((message) => message.callId ?? null)).toEqual([
      null,
      null,
      null,
      callId,
      callId,
      callId,
    ]);
    expect(messages[3]).toMatchObject({
      conversationId: first.conversationId,
      callDuration: expect.any(Number),
    });

    // The next chat reply has them in its history.
    await send(fan.token, "What was I telling you about?", first.conversationId);
    expect(lastPrompt().turns).toContainEqual({
      role: "user",
      content: "My dog is called Biscuit and I love sailing.",
    });

    // The next call starts with the recent chat and call turns as history.
    await placeCall(fan.token, ["Are you still there?"]);
    const callPrompt = lastPrompt().turns;
    expect(callPrompt).toContainEqual({ role: "user", content: "What was I telling you about?" });
    expect(callPrompt).toContainEqual({
      role: "user",
      content: "My dog is called Biscuit and I love sailing.",
    });
    expect(callPrompt.at(-1)).toEqual({ role: "user", content: "Are you still there?" });
  });

  it("GET /api/voice-call/calls/{id} answers only the owner's call", async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const callId = await placeCall(owner.token, ["Just checking in."]);
    const mine = await call(t, "GET", `/api/voice-call/calls/${callId}`, { token: owner.token });
    expect(mine.statusCode).toBe(200);
    expect(callDetailResponseSchema.parse(mine.json()).call._id).toBe(callId);
    const theirs = await call(t, "GET", `/api/voice-call/calls/${callId}`, { token: other.token });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe("Call not found");
    const unknown = await call(t, "GET", `/api/voice-call/calls/${crypto.randomUUID()}`, {
      token: owner.token,
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await call(t, "GET", "/api/voice-call/calls/nope", { token: owner.token });
    expect(malformed.statusCode).toBe(400);
    const anonymous = await call(t, "GET", `/api/voice-call/calls/${callId}`);
    expect(anonymous.statusCode).toBe(401);
  });

  it("clearing the chat history clears the call turns too", async () => {
    const fan = await signUp(t);
    const callId = await placeCall(fan.token, ["I live in Lisbon by the river."]);
    expect((await memoryOf(fan.token)).facts).toHaveLength(1);
    const cleared = await call(t, "DELETE", "/api/chat/clear-history", { token: fan.token });
    expect(cleared.statusCode).toBe(200);
    expect(await transcript(fan.token, callId)).toEqual([]);
    const page = await call(t, "GET", "/api/chat/messages", { token: fan.token });
    expect(messagesPageResponseSchema.parse(page.json()).data.messages).toEqual([]);
    expect((await memoryOf(fan.token)).facts).toEqual([]);
    // The call itself stays in the call history (it was paid for).
    const history = await call(t, "GET", "/api/voice-call/history", { token: fan.token });
    expect(history.json().calls.map((entry: { _id: string }) => entry._id)).toContain(callId);
  });

  it("the admin's chat logs show calls beside chats, filterable, with the transcript in the CSV", async () => {
    const caller = await signUp(t, { name: "Caller Quinn" });
    const typist = await signUp(t, { name: "Typist Quinn" });
    await send(typist.token, "Only typing here.");
    await placeCall(caller.token, ["I grew up near the sea."]);
    const admin = await adminSession(t);
    const list = async (channel: string) => {
      const response = await call(t, "GET", "/api/admin/chat-logs", {
        token: admin.token,
        query: { search: "Quinn", channel },
      });
      expect(response.statusCode, response.body).toBe(200);
      return chatLogsResponseSchema.parse(response.json()).data;
    };
    expect((await list("call")).map((log) => [log.user.name, log.calls])).toEqual([
      ["Caller Quinn", 1],
    ]);
    expect((await list("chat")).map((log) => log.user.name)).toEqual(["Typist Quinn"]);
    expect(await list("all")).toHaveLength(2);
    const bad = await call(t, "GET", "/api/admin/chat-logs", {
      token: admin.token,
      query: { channel: "fax" },
    });
    expect(bad.statusCode).toBe(400);

    // The conversation dialog's messages mark the call turns.
    const [callLog] = await list("call");
    const dialog = await call(t, "GET", `/api/admin/chat-logs/${callLog?._id}/messages`, {
      token: admin.token,
    });
    expect(
      messagesPageResponseSchema.parse(dialog.json()).data.messages.every((m) => m.callId),
    ).toBe(true);

    const csv = await call(t, "GET", "/api/admin/chat-logs/export", {
      token: admin.token,
      query: { search: "Caller Quinn" },
    });
    const [header, row] = csv.body.split("\r\n");
    expect(header).toBe(`\uFEFF${csvLine(CHAT_LOGS_CSV_HEADER)}`);
    expect(row).toContain(
      `,"1","[AI notice]: ${aiNoticeText("Mira Vale")}\nFan: I grew up near the sea.\nMira Vale: ${REPLY.join("")}"`,
    );
  });
});

describe("long-term recall", () => {
  it("a fact told 300 messages earlier reaches the prompt; another fan's identical question never gets it", async () => {
    const fan = await signUp(t);
    const told = await send(fan.token, "My sister's name is Ottilie and she bakes sourdough.");
    await filler(fan.user.id, told.conversationId, 300);
    await send(fan.token, "What is my sister called?", told.conversationId);
    const { system, turns } = lastPrompt();
    expect(turns.some((turn) => turn.content.includes("Ottilie"))).toBe(false);
    expect(system).toContain("What you remember about this fan");
    expect(system).toContain("My sister's name is Ottilie and she bakes sourdough.");

    const stranger = await signUp(t);
    const theirs = await send(stranger.token, "I have no siblings, sadly.");
    await filler(stranger.user.id, theirs.conversationId, 300);
    await send(stranger.token, "What is my sister called?", theirs.conversationId);
    expect(lastPrompt().system).not.toContain("Ottilie");
  });

  it("recall still finds the fan's words once the planner has statistics (after ANALYZE)", async () => {
    const fan = await signUp(t);
    const told = await send(fan.token, "My grandfather restored a wooden schooner in Gdansk.");
    await filler(fan.user.id, told.conversationId, 300);
    // What the worker (PGlite) and autovacuum (PostgreSQL) do every few minutes: afterwards
    // pg_stats lists the common words of tsv (here "film", "tell", "number", "classic").
    await t.app.database.db.execute(sql`analyze ${chatMessages}`);
    const common = await t.app.database.db.execute(sql`
      select most_common_elems::text as elems from pg_stats
      where schemaname = current_schema() and tablename = 'chat_messages' and attname = 'tsv'`);
    expect((common as unknown as { rows: { elems: string | null }[] }).rows[0]?.elems).toContain(
      "film",
    );

    await send(
      fan.token,
      "Do you remember the schooner my grandfather restored?",
      told.conversationId,
    );
    const { system, turns } = lastPrompt();
    expect(turns.some((turn) => turn.content.includes("Gdansk"))).toBe(false);
    expect(system).toContain("My grandfather restored a wooden schooner in Gdansk.");
    // A common word alone finds nothing: it says nothing about what the fan told.
    await send(fan.token, "Tell me about a film.", told.conversationId);
    expect(lastPrompt().system).not.toContain("Tell me about film number");
  });

  it("deleting a memory or switching memory off removes it from the next prompt", async () => {
    const fan = await signUp(t);
    const told = await send(fan.token, "My favourite colour is teal.");
    await send(fan.token, "I work as a lighthouse keeper.", told.conversationId);
    await filler(fan.user.id, told.conversationId, 120);

    const memory = await memoryOf(fan.token);
    expect(memory.enabled).toBe(true);
    expect(memory.facts.map((fact) => fact.content)).toEqual([
      "I work as a lighthouse keeper.",
      "My favourite colour is teal.",
    ]);

    await send(fan.token, "Which colour do I like?", told.conversationId);
    expect(lastPrompt().system).toContain("teal");
    const teal = memory.facts.find((fact) => fact.content.includes("teal"));
    const deleted = await call(t, "DELETE", `/api/memory/facts/${teal?._id}`, {
      token: fan.token,
    });
    expect(deleted.statusCode).toBe(200);
    await send(fan.token, "Which colour do I like?", told.conversationId);
    expect(lastPrompt().system).not.toContain("teal");
    expect((await memoryOf(fan.token)).facts.map((fact) => fact.content)).toEqual([
      "I work as a lighthouse keeper.",
    ]);

    await send(fan.token, "Where do I work, the lighthouse?", told.conversationId);
    expect(lastPrompt().system).toContain("lighthouse keeper");
    const off = await call(t, "PATCH", "/api/memory", {
      token: fan.token,
      body: { enabled: false },
    });
    expect(off.statusCode).toBe(200);
    expect((await memoryOf(fan.token)).enabled).toBe(false);
    await send(fan.token, "Where do I work, the lighthouse?", told.conversationId);
    expect(lastPrompt().system).not.toContain("lighthouse keeper");

    // Another fan cannot forget this fan's words; bad input is a 400.
    const other = await signUp(t);
    const facts = await memoryOf(fan.token);
    const foreign = await call(t, "DELETE", `/api/memory/facts/${facts.facts[0]?._id}`, {
      token: other.token,
    });
    expect(foreign.statusCode).toBe(404);
    const bad = await call(t, "PATCH", "/api/memory", { token: fan.token, body: { enabled: 1 } });
    expect(bad.statusCode).toBe(400);
  });

  it("with an LLM key a running summary is kept in the background, shown, used and deletable", async () => {
    const fan = await signUp(t);
    const first = await send(fan.token, "Call me Sam, by the way.");
    for (const message of [
      "I love sailing on weekends.",
      "My cat is named Pixel.",
      "I am learning Portuguese.",
      "I live near the harbour.",
    ]) {
      await send(fan.token, message, first.conversationId);
    }
    openai.reply = ["Sam loves sailing, has a cat named Pixel and is learning Portuguese."];
    await send(fan.token, "Anyway, how are you?", first.conversationId);
    await summarize();
    const summaryRequest = sentChatCompletions(openai).find(
      (entry) =>
        entry.messages[0]?.content.includes("private notes") &&
        entry.messages[1]?.content.includes("Pixel"),
    );
    expect(summaryRequest?.messages[1]?.content).toContain("- My cat is named Pixel.");

    const memory = await memoryOf(fan.token);
    expect(memory.summary?.content).toBe(
      "Sam loves sailing, has a cat named Pixel and is learning Portuguese.",
    );
    openai.reply = [...REPLY];
    await send(fan.token, "Hello again!", first.conversationId);
    expect(lastPrompt().system).toContain("Summary: Sam loves sailing");

    const deleted = await call(t, "DELETE", "/api/memory/summary", { token: fan.token });
    expect(deleted.statusCode).toBe(200);
    await send(fan.token, "Hello once more!", first.conversationId);
    expect(lastPrompt().system).not.toContain("Summary:");
    expect((await memoryOf(fan.token)).summary).toBeNull();
  });

  it("forgetting a fact the summary was written from drops that summary: the next prompt carries neither", async () => {
    const fan = await signUp(t);
    const first = await send(fan.token, "Call me Alex, by the way.");
    for (const message of [
      "My cat is named Pixel.",
      "I love sailing on weekends.",
      "I am learning Portuguese.",
      "I live near the harbour.",
    ]) {
      await send(fan.token, message, first.conversationId);
    }
    openai.reply = ["Alex has a cat named Pixel and loves sailing."];
    await send(fan.token, "Anyway, how are you?", first.conversationId);
    await summarize();
    openai.reply = [...REPLY];
    const before = await memoryOf(fan.token);
    expect(before.summary?.content).toContain("Pixel");

    const pixel = before.facts.find((fact) => fact.content.includes("Pixel"));
    const deleted = await call(t, "DELETE", `/api/memory/facts/${pixel?._id}`, {
      token: fan.token,
    });
    expect(deleted.statusCode).toBe(200);
    expect((await memoryOf(fan.token)).summary).toBeNull();
    await send(fan.token, "What is my cat called?", first.conversationId);
    const { system, turns } = lastPrompt();
    expect(system).not.toContain("Pixel");
    expect(system).not.toContain("Summary:");
    expect(turns.filter((turn) => turn.content.includes("My cat is named Pixel"))).toEqual([]);

    // The next summary is written from newer words only, never the forgotten one.
    for (const message of ["I have two brothers.", "I like jazz.", "I run at dawn.", "Hi!"]) {
      await send(fan.token, message, first.conversationId);
    }
    await summarize();
    const summaries = sentChatCompletions(openai).filter((entry) =>
      entry.messages[0]?.content.includes("private notes"),
    );
    expect(summaries.at(-1)?.messages[1]?.content).toContain("- I like jazz.");
    expect(summaries.at(-1)?.messages[1]?.content).not.toContain("Pixel");
  });

  it("a burst of replies queues one refresh job; a model that keeps failing is retried, then dead-lettered; the next words queue a new one", async () => {
    const fan = await signUp(t);
    const first = await send(fan.token, "I grow tomatoes on my balcony.");
    for (const message of ["I knit.", "I sing.", "I draw.", "I swim.", "I cook.", "I read."]) {
      await send(fan.token, message, first.conversationId);
    }
    await t.app.memory.idle();
    // Seven words waiting, five of them past the threshold: one job, not three.
    const [queued, ...more] = await summaryJobs(fan.user.id);
    expect(more).toEqual([]);
    expect(queued?.state).toBe("created");

    // The model refuses (a revoked key): each attempt fails, and is retried once its wait is
    // over (moved to now here, instead of waiting 30 s and more).
    openai.validKey = "sk-revoked-meanwhile-000000";
    try {
      for (let attempt = 0; attempt < 4; attempt += 1) {
        await t.app.database.db.execute(
          sql`update pgboss.job set start_after = now() - interval '1 second' where id = ${queued?.id}::uuid`,
        );
        await t.app.jobs.runDue(SUMMARY_JOB);
      }
    } finally {
      openai.validKey = FAKE_OPENAI_KEY;
    }
    expect(await summaryJobs(fan.user.id)).toEqual([
      { id: queued?.id, state: "failed", retryCount: 3 },
    ]);
    // The admin's Jobs panel shows why, with the key itself redacted.
    const failed = await t.app.jobs.board.get(queued?.id ?? "");
    expect(failed?.error).toMatch(/^Incorrect API key provided/);
    expect(failed?.error).not.toContain("sk-");
    expect(await summaryJobs(fan.user.id, `${SUMMARY_JOB}.dead`)).toHaveLength(1);
    expect((await memoryOf(fan.token)).summary).toBeNull();

    // The words are still waiting: the fan's next reply queues a refresh, which now succeeds.
    openai.reply = ["Grows tomatoes, knits, sings and swims."];
    await send(fan.token, "I also paint.", first.conversationId);
    await summarize();
    expect((await summaryJobs(fan.user.id)).map((job) => job.state)).toEqual([
      "failed",
      "completed",
    ]);
    expect((await memoryOf(fan.token)).summary?.content).toBe(
      "Grows tomatoes, knits, sings and swims.",
    );
  });

  it("a summary being written while its fact is forgotten is not kept", async () => {
    const fan = await signUp(t);
    const first = await send(fan.token, "My parrot is named Kiwi.");
    // Four messages: fewer than the five that start a refresh of its own.
    for (const message of ["I sing.", "I draw.", "I swim."]) {
      await send(fan.token, message, first.conversationId);
    }
    const kiwi = (await memoryOf(fan.token)).facts.find((fact) => fact.content.includes("Kiwi"));
    // The refresh reads the fan's words, then (as a slow model would) the fact is forgotten
    // before its summary is saved, by another instance that knows nothing of the refresh.
    const repository = createMemoryRepository(t.app.database.db);
    const read = await repository.summaryInput(fan.user.id, 200);
    expect(read.words).toContain("My parrot is named Kiwi.");
    expect(await repository.forget(fan.user.id, kiwi?._id ?? "")).toBe(true);
    await repository.saveSummary(
      fan.user.id,
      "Has a parrot, Kiwi.",
      read.throughSeq ?? 0,
      read.read,
    );
    expect((await memoryOf(fan.token)).summary).toBeNull();
  });

  it("deleting the account deletes everything remembered", async () => {
    const fan = await signUp(t);
    const told = await send(fan.token, "My name is Robin.");
    await call(t, "PATCH", "/api/memory", { token: fan.token, body: { enabled: true } });
    expect(told.userMessage.content).toBe("My name is Robin.");
    // The product has no account deletion yet; whatever deletes the user row takes the memory
    // with it (cascades). The sign-up credits' ledger entry is a money record that keeps a user
    // row from being deleted on its own, so it goes first here.
    const db = t.app.database.db;
    await db.delete(creditLedger).where(eq(creditLedger.userId, fan.user.id));
    await db.delete(users).where(eq(users.id, fan.user.id));
    expect(await db.select().from(fanMemory).where(eq(fanMemory.userId, fan.user.id))).toEqual([]);
    expect(
      await db
        .select({ id: chatMessages.id })
        .from(chatMessages)
        .where(eq(chatMessages.userId, fan.user.id)),
    ).toEqual([]);
  });
});
