import { count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { type VoiceCallRow, voiceCalls } from "../../../db/schema/index.ts";
import { pageOffset } from "../../../lib/paging.ts";

export async function findCall(db: Database, callId: string): Promise<VoiceCallRow | undefined> {
  const [row] = await db.select().from(voiceCalls).where(eq(voiceCalls.id, callId));
  return row;
}

/** The user's most recent call. */
export async function latestCall(db: Database, userId: string): Promise<VoiceCallRow | undefined> {
  const [row] = await db
    .select()
    .from(voiceCalls)
    .where(eq(voiceCalls.userId, userId))
    .orderBy(desc(voiceCalls.startedAt))
    .limit(1);
  return row;
}

/** A page of the user's calls, newest first (index voice_calls_user_started_idx). */
export async function callHistory(
  db: Database,
  userId: string,
  page: { page: number; limit: number },
) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(voiceCalls)
      .where(eq(voiceCalls.userId, userId))
      .orderBy(desc(voiceCalls.startedAt), desc(voiceCalls.id))
      .limit(page.limit)
      .offset(pageOffset(page)),
    db.select({ total: count() }).from(voiceCalls).where(eq(voiceCalls.userId, userId)),
  ]);
  return { rows, total: total?.total ?? 0 };
}

/** The persona's trained voice (AI training), if any. */
export async function trainedVoiceId(db: Database): Promise<string | null> {
  const result = (await db.execute(sql`select voice_id from ai_training limit 1`)) as unknown as {
    rows: { voice_id: string | null }[];
  };
  return result.rows[0]?.voice_id ?? null;
}
