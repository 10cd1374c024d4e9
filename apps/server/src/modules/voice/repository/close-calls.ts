import { and, eq, isNull, notInArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  type VoiceCallEndReason,
  type VoiceCallRow,
  voiceCalls,
} from "../../../db/schema/index.ts";

/**
 * The duration recorded when a call closes at `endedAt`: the seconds elapsed, clamped so that
 * rounded up to minutes they are exactly the minutes charged, ((m-1)·60, m·60]; the end itself
 * is never later than the end of the last paid minute.
 */
const endedAtSql = (endedAt: Date): SQL =>
  sql`least(${endedAt.toISOString()}::timestamptz, ${voiceCalls.startedAt} + ${voiceCalls.minutesCharged} * interval '60 seconds')`;
const durationSql = (endedAt: Date): SQL => sql`least(
    greatest(
      round(extract(epoch from (${endedAt.toISOString()}::timestamptz - ${voiceCalls.startedAt})))::int,
      (${voiceCalls.minutesCharged} - 1) * 60 + 1,
      0
    ),
    ${voiceCalls.minutesCharged} * 60
  )`;

/** An abandoned call ends at the end of its last paid minute, the server's doing. */
const endedAtLastPaidMinute = {
  endedAt: sql`${voiceCalls.startedAt} + ${voiceCalls.minutesCharged} * interval '60 seconds'`,
  durationSeconds: sql`${voiceCalls.minutesCharged} * 60`,
  endReason: "server",
} as const;

/** An open call whose paid time ended before `cutoff`. */
const paidTimeEndedBefore = (cutoff: string): SQL =>
  sql`${voiceCalls.startedAt} + ${voiceCalls.minutesCharged} * interval '60 seconds' < ${cutoff}::timestamptz`;

/** Closes the given open calls (a condition on voice_calls); answers the rows it closed. */
async function closeWhere(
  db: Database,
  where: SQL | undefined,
  reason: VoiceCallEndReason,
  endedAt: Date,
  reportedDurationSeconds: number | undefined,
): Promise<VoiceCallRow[]> {
  return db
    .update(voiceCalls)
    .set({
      endedAt: endedAtSql(endedAt),
      durationSeconds: durationSql(endedAt),
      endReason: reason,
      ...(reportedDurationSeconds !== undefined
        ? { reportedDurationSeconds: Math.round(reportedDurationSeconds) }
        : {}),
    })
    .where(and(isNull(voiceCalls.endedAt), where))
    .returning();
}

/** Closes one call if it is still open; undefined when it was closed already. */
export async function closeCall(
  db: Database,
  callId: string,
  reason: VoiceCallEndReason,
  endedAt: Date,
  reportedDurationSeconds?: number,
): Promise<VoiceCallRow | undefined> {
  const [row] = await closeWhere(
    db,
    eq(voiceCalls.id, callId),
    reason,
    endedAt,
    reportedDurationSeconds,
  );
  return row;
}

/** Closes the user's open call, if any (the end route's). */
export async function closeOpenCallOf(
  db: Database,
  userId: string,
  reason: VoiceCallEndReason,
  endedAt: Date,
  reportedDurationSeconds?: number,
): Promise<VoiceCallRow | undefined> {
  const [row] = await closeWhere(
    db,
    eq(voiceCalls.userId, userId),
    reason,
    endedAt,
    reportedDurationSeconds,
  );
  return row;
}

/** Records the client's reported duration on a call closed before the report came. */
export async function noteReportedDuration(
  db: Database,
  callId: string,
  seconds: number,
): Promise<void> {
  await db
    .update(voiceCalls)
    .set({ reportedDurationSeconds: Math.round(seconds) })
    .where(and(eq(voiceCalls.id, callId), isNull(voiceCalls.reportedDurationSeconds)));
}

/**
 * Closes the user's open call if its paid time ended more than `graceMs` ago: a stopped server
 * left it behind (the rule of closeAbandoned), and it must not keep the fan from calling.
 */
export async function closeAbandonedOf(
  db: Database,
  userId: string,
  now: Date,
  graceMs: number,
): Promise<void> {
  await db
    .update(voiceCalls)
    .set(endedAtLastPaidMinute)
    .where(
      and(
        eq(voiceCalls.userId, userId),
        isNull(voiceCalls.endedAt),
        paidTimeEndedBefore(new Date(now.getTime() - graceMs).toISOString()),
      ),
    );
}

/**
 * Closes the calls a stopped server left open: an open call whose paid time ended more than
 * `graceMs` ago has no live socket charging it (a live one charges each minute as it starts).
 * It ends at the end of its last paid minute. Safe with several instances sharing the
 * database: a live call is never that late.
 */
export async function closeAbandoned(
  db: Database,
  now: Date,
  graceMs: number,
  /** The calls live in this process: never abandoned, however late a charge runs. */
  liveHere: string[] = [],
): Promise<VoiceCallRow[]> {
  const cutoff = new Date(now.getTime() - graceMs).toISOString();
  return db
    .update(voiceCalls)
    .set(endedAtLastPaidMinute)
    .where(
      and(
        isNull(voiceCalls.endedAt),
        liveHere.length > 0 ? notInArray(voiceCalls.id, liveHere) : undefined,
        paidTimeEndedBefore(cutoff),
      ),
    )
    .returning();
}
