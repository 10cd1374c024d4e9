import type { SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { type ChatMessageRow, chatMessages, voiceCalls } from "../../../db/schema/index.ts";

/** A message of the prompt's history: the fan's and the persona's only, never a product message. */
export type HistoryRow = Pick<ChatMessageRow, "id" | "content"> & { sender: "user" | "ai" };
/** A turn of a stored transcript, product messages (the spoken AI notice) included. */
export type TranscriptRow = Pick<ChatMessageRow, "id" | "sender" | "content" | "productKind">;

/** The rows of a raw statement: both drivers answer it with { rows }. */
export async function rowsOf<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** A message's columns, with its call's duration when it is a call turn (null while live). */
export const messageColumns = {
  id: chatMessages.id,
  conversationId: chatMessages.conversationId,
  userId: chatMessages.userId,
  sender: chatMessages.sender,
  productKind: chatMessages.productKind,
  flagCategory: chatMessages.flagCategory,
  flagSource: chatMessages.flagSource,
  content: chatMessages.content,
  createdAt: chatMessages.createdAt,
  replyFailed: chatMessages.replyFailed,
  callId: chatMessages.callId,
  callDuration: sql<
    number | null
  >`case when ${voiceCalls.endedAt} is null then null else ${voiceCalls.durationSeconds} end`,
};

/** A message row of a raw statement (snake_case columns), as the rest of the module reads it. */
export function toMessageRow(row: Record<string, unknown> | undefined): ChatMessageRow {
  if (!row) throw new Error("The message was not saved");
  // An ISO 8601 text (to_json), whichever driver answered.
  const createdAt = row.created_at;
  return {
    id: String(row.id),
    conversationId: String(row.conversation_id),
    userId: String(row.user_id),
    sender: row.sender === "ai" || row.sender === "product" ? row.sender : "user",
    ...(row.product_kind ? { productKind: row.product_kind as ChatMessageRow["productKind"] } : {}),
    content: String(row.content),
    replyFailed: row.reply_failed === true,
    callId: row.call_id === null || row.call_id === undefined ? null : String(row.call_id),
    createdAt: createdAt instanceof Date ? createdAt : new Date(String(createdAt)),
  };
}
