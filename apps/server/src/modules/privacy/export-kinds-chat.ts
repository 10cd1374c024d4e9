// The fan's conversations, messages, calls and memory, as files of the export.
import { asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { chatMessages, conversations, fanMemory, voiceCalls } from "../../db/schema/index.ts";
import { type ExportKind, groupBy, iso, keysetRead, writeArray } from "./export-format.ts";

export const conversationList: ExportKind = {
  file: "conversations.json",
  title: "Your conversations with the persona (their messages are in messages.json)",
  fields: {
    id: "The conversation's id (messages.json names it in conversationId)",
    title: "Its title",
    startedAt: "When it started",
    lastMessageAt: "Its latest message",
    messageCount: "How many messages it holds",
    callCount: "How many voice calls took place in it",
  },
  async write(out, { db, userId }) {
    const pages = keysetRead(db, {
      table: conversations,
      fields: {
        id: conversations.id,
        title: conversations.title,
        startedAt: conversations.startedAt,
        lastMessageAt: conversations.lastMessageAt,
        messageCount: conversations.messageCount,
        callCount: conversations.callCount,
      },
      user: conversations.userId,
      userId,
      time: conversations.startedAt,
      tie: conversations.id,
    });
    await writeArray(out, pages, (rows) =>
      rows.map((row) => ({
        id: row.id,
        title: row.title,
        startedAt: iso(row.startedAt),
        lastMessageAt: iso(row.lastMessageAt),
        messageCount: row.messageCount,
        callCount: row.callCount,
      })),
    );
  },
};

/** A fan's messages in the order they were written, a page at a time (the user's index). */
export function messagePages(db: Database, userId: string, only?: SQL) {
  return keysetRead(db, {
    table: chatMessages,
    fields: {
      id: chatMessages.id,
      createdAt: chatMessages.createdAt,
      conversationId: chatMessages.conversationId,
      sender: chatMessages.sender,
      productKind: chatMessages.productKind,
      content: chatMessages.content,
      callId: chatMessages.callId,
      replyFailed: chatMessages.replyFailed,
      forgotten: chatMessages.forgotten,
    },
    user: chatMessages.userId,
    userId,
    time: chatMessages.createdAt,
    tie: chatMessages.seq,
    only,
  });
}

export const messages: ExportKind = {
  file: "messages.json",
  title: "Every message of your conversations, yours and the persona's, oldest first",
  fields: {
    id: "The message's id",
    conversationId: "The conversation it belongs to (conversations.json)",
    sender: "user: you; ai: the persona; product: a notice of the product itself",
    productKind: "For a product notice, which one",
    content: "The text (a call turn's words as transcribed or spoken)",
    createdAt: "When it was written",
    callId: "The voice call it was said in (calls.json), if any",
    replyFailed: "The persona could not answer this message",
    forgotten: "You asked the persona to forget it: it is never used again",
  },
  async write(out, { db, userId }) {
    await writeArray(out, messagePages(db, userId), (rows) =>
      rows.map((row) => ({
        id: row.id,
        conversationId: row.conversationId,
        sender: row.sender,
        productKind: row.productKind,
        content: row.content,
        createdAt: iso(row.createdAt),
        callId: row.callId,
        replyFailed: row.replyFailed,
        forgotten: row.forgotten,
      })),
    );
  },
};

export const calls: ExportKind = {
  file: "calls.json",
  title: "Your voice calls with their transcripts",
  fields: {
    id: "The call's id",
    startedAt: "When it started",
    endedAt: "When it ended (null while live)",
    durationSeconds: "How long it lasted",
    minutesCharged: "Minutes charged (each started minute)",
    creditsPerMinute: "The rate when it started",
    creditsConsumed: "Credits it cost",
    endReason: "Why it ended",
    transcript: "What was said, in order: sender (user or ai), content, createdAt",
  },
  async write(out, { db, userId }) {
    const pages = keysetRead(db, {
      table: voiceCalls,
      fields: {
        id: voiceCalls.id,
        startedAt: voiceCalls.startedAt,
        endedAt: voiceCalls.endedAt,
        durationSeconds: voiceCalls.durationSeconds,
        minutesCharged: voiceCalls.minutesCharged,
        creditsPerMinute: voiceCalls.creditsPerMinute,
        creditsConsumed: voiceCalls.creditsConsumed,
        endReason: voiceCalls.endReason,
      },
      user: voiceCalls.userId,
      userId,
      time: voiceCalls.startedAt,
      tie: voiceCalls.id,
    });
    // A page of calls and their turns: one query for the page's transcripts (the call index).
    await writeArray(out, pages, async (page) => {
      const turns = await db
        .select({
          callId: chatMessages.callId,
          sender: chatMessages.sender,
          content: chatMessages.content,
          createdAt: chatMessages.createdAt,
        })
        .from(chatMessages)
        .where(
          inArray(
            chatMessages.callId,
            page.map((call) => call.id),
          ),
        )
        .orderBy(asc(chatMessages.callId), asc(chatMessages.createdAt), asc(chatMessages.seq));
      const turnsOf = groupBy(turns, (turn) => turn.callId);
      return page.map((call) => ({
        id: call.id,
        startedAt: iso(call.startedAt),
        endedAt: iso(call.endedAt),
        durationSeconds: call.durationSeconds,
        minutesCharged: call.minutesCharged,
        creditsPerMinute: call.creditsPerMinute,
        creditsConsumed: call.creditsConsumed,
        endReason: call.endReason,
        transcript: (turnsOf.get(call.id) ?? []).map((turn) => ({
          sender: turn.sender,
          content: turn.content,
          createdAt: iso(turn.createdAt),
        })),
      }));
    });
  },
};

export const memory: ExportKind = {
  file: "memory.json",
  title: "What the persona remembers of you",
  fields: {
    enabled: "Whether memory is on",
    summary: "The persona's running summary of you (kept only with an AI provider key)",
    summaryUpdatedAt: "When the summary was last written",
    facts: "What you told about yourself that the persona recalls: id, content, createdAt, callId",
  },
  async write(out, { db, userId }) {
    const [kept] = await db.select().from(fanMemory).where(eq(fanMemory.userId, userId));
    const head = {
      enabled: kept?.enabled ?? true,
      summary: kept?.summary ?? null,
      summaryUpdatedAt: iso(kept?.summaryUpdatedAt),
    };
    await out.write(`${JSON.stringify(head, null, 2).slice(0, -2)},\n  "facts": `);
    const remembered = sql`${chatMessages.remembered} and not ${chatMessages.forgotten}`;
    await writeArray(out, messagePages(db, userId, remembered), (rows) =>
      rows.map((row) => ({
        id: row.id,
        content: row.content,
        createdAt: iso(row.createdAt),
        callId: row.callId,
      })),
    );
    await out.write("}\n");
  },
};
