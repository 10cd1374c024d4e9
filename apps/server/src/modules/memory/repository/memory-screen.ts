import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { chatMessages, fanMemory } from "../../../db/schema/index.ts";
import { rowsOf } from "./rows.ts";

/** One thing the fan told, as the memory screen lists it. */
export interface RememberedRow {
  id: string;
  content: string;
  createdAt: Date;
  callId: string | null;
}

export interface MemoryView {
  enabled: boolean;
  summary: string | null;
  summaryUpdatedAt: Date | null;
  facts: RememberedRow[];
}

/** At most this many remembered facts are listed (the newest). */
export const FACTS_LIMIT = 100;

/** The fan's memory screen: the switch, the summary, the newest remembered facts. */
export async function view(db: Database, userId: string): Promise<MemoryView> {
  const [[memory], facts] = await Promise.all([
    db.select().from(fanMemory).where(eq(fanMemory.userId, userId)),
    db
      .select({
        id: chatMessages.id,
        content: chatMessages.content,
        createdAt: chatMessages.createdAt,
        callId: chatMessages.callId,
      })
      .from(chatMessages)
      .where(
        and(
          eq(chatMessages.userId, userId),
          sql`${chatMessages.remembered} and not ${chatMessages.forgotten}`,
        ),
      )
      .orderBy(desc(chatMessages.createdAt))
      .limit(FACTS_LIMIT),
  ]);
  return {
    enabled: memory?.enabled ?? true,
    summary: memory?.summary ?? null,
    summaryUpdatedAt: memory?.summaryUpdatedAt ?? null,
    facts,
  };
}

export async function setEnabled(db: Database, userId: string, enabled: boolean): Promise<void> {
  await db
    .insert(fanMemory)
    .values({ userId, enabled })
    .onConflictDoUpdate({ target: fanMemory.userId, set: { enabled } });
}

/** The summary goes; what it had read is not read again (summarized_seq stays). */
export async function deleteSummary(db: Database, userId: string): Promise<void> {
  await db
    .update(fanMemory)
    .set({ summary: null, summaryUpdatedAt: null })
    .where(eq(fanMemory.userId, userId));
}

/**
 * One of the fan's own messages is forgotten: never in a prompt again. A summary written
 * after reading it (summarized_seq at or past it) carries it too, so it goes in the same
 * statement (as DELETE /summary: summarized_seq stays, the next summary reads only newer
 * words). False: not theirs.
 */
export async function forget(db: Database, userId: string, messageId: string): Promise<boolean> {
  const result = await rowsOf<{ id: string }>(
    db,
    sql`
    with m as (
      update ${chatMessages} set forgotten = true
      where id = ${messageId} and user_id = ${userId} and sender = 'user'
      returning id, seq
    ),
    summary as (
      update ${fanMemory} set summary = null, summary_updated_at = null
      where user_id = ${userId} and summary is not null
        and summarized_seq >= (select seq from m)
    )
    select id from m`,
  );
  return result.rows.length > 0;
}
