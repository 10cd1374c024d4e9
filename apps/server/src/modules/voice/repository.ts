import { and, count, desc, eq, isNull, notInArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  type VoiceCallEndReason,
  type VoiceCallRow,
  voiceCalls,
  voiceDailyUsage,
} from "../../db/schema/index.ts";
import { pageOffset } from "../../lib/paging.ts";
import {
  applyCreditMovement,
  type CreditMovementRow,
  creditMovementCall,
  creditMovementResult,
  InsufficientCreditsError,
  noteLowBalanceAfter,
} from "../credits/ledger.ts";

export type { VoiceCallEndReason, VoiceCallRow };

/** A user's daily caps on provider spend outside a paid call. */
export interface VoiceUsageLimits {
  synthesizedCharacters: number;
  llmCalls: number;
}
export type UsageAmount = Partial<VoiceUsageLimits>;

/** The ledger's key of a call's minute (0 is the first): a retry changes nothing. */
export const minuteSourceKey = (callId: string, minute: number) => `call:${callId}:${minute}`;

export type StartOutcome =
  | { kind: "started"; call: VoiceCallRow; balance: number }
  /** The user has an open call already (one live call per fan); nothing was written. */
  | { kind: "busy" }
  | { kind: "insufficient"; balance: number };

export type ChargeOutcome =
  | { kind: "charged"; balance: number }
  /** The call was closed meanwhile (hang-up report, another connection, the sweep). */
  | { kind: "ended" }
  | { kind: "insufficient"; balance: number };

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

export function createVoiceRepository(db: Database) {
  /** Closes the given open calls (a condition on voice_calls); answers the rows it closed. */
  const close = async (
    where: SQL | undefined,
    reason: VoiceCallEndReason,
    endedAt: Date,
    reportedDurationSeconds: number | undefined,
    executor: Database = db,
  ): Promise<VoiceCallRow[]> =>
    executor
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

  /**
   * Closes the user's open call if its paid time ended more than `graceMs` ago: a stopped server
   * left it behind (the rule of closeAbandoned), and it must not keep the fan from calling.
   */
  const closeAbandonedOf = (userId: string, now: Date, graceMs: number, executor: Database) =>
    executor
      .update(voiceCalls)
      .set({
        endedAt: sql`${voiceCalls.startedAt} + ${voiceCalls.minutesCharged} * interval '60 seconds'`,
        durationSeconds: sql`${voiceCalls.minutesCharged} * 60`,
        endReason: "server",
      })
      .where(
        and(
          eq(voiceCalls.userId, userId),
          isNull(voiceCalls.endedAt),
          sql`${voiceCalls.startedAt} + ${voiceCalls.minutesCharged} * interval '60 seconds' < ${new Date(now.getTime() - graceMs).toISOString()}::timestamptz`,
        ),
      );

  return {
    /**
     * A new call and its first minute, in one transaction, unless the user has an open call:
     * the partial unique index voice_calls_one_open_per_user decides (on every instance), and a
     * start that meets it inserts nothing and charges nothing. Starts at once wait on each
     * other's insert there: exactly one is started. Fewer credits than a minute: nothing is
     * written. An open call a stopped server left behind (`abandonedGraceMs`) is closed first.
     * It starts when the transaction has the database (`now` read then), not when it was
     * asked for: a start that waited in a busy database's queue is not born late (its first
     * minute half gone, or taken for abandoned by the sweep).
     */
    async startCall(input: {
      userId: string;
      now: () => Date;
      creditsPerMinute: number;
      abandonedGraceMs: number;
    }): Promise<StartOutcome> {
      try {
        return await db.transaction(async (tx) => {
          const startedAt = input.now();
          await closeAbandonedOf(input.userId, startedAt, input.abandonedGraceMs, tx);
          const [call] = await tx
            .insert(voiceCalls)
            .values({
              userId: input.userId,
              startedAt,
              creditsPerMinute: input.creditsPerMinute,
              minutesCharged: 1,
              creditsConsumed: input.creditsPerMinute,
              durationSeconds: 0,
            })
            .onConflictDoNothing({ target: voiceCalls.userId, where: sql`ended_at is null` })
            .returning();
          if (!call) return { kind: "busy" as const };
          const { balance } = await applyCreditMovement(tx, {
            userId: input.userId,
            kind: "call_minute",
            amount: -input.creditsPerMinute,
            sourceKey: minuteSourceKey(call.id, 0),
            metadata: { callId: call.id, minute: 0 },
          });
          return { kind: "started" as const, call, balance };
        });
      } catch (error) {
        if (error instanceof InsufficientCreditsError) {
          return { kind: "insufficient", balance: error.balance };
        }
        throw error;
      }
    },

    /**
     * Charges minute `minute` (1 is the second) of an open call: the ledger entry and the call's
     * counters in one statement (one round trip: on PGlite's one connection a transaction of
     * several would hold the database through each), the call's row locked first. A minute
     * already charged changes nothing; a closed call is not charged.
     */
    async chargeMinute(call: VoiceCallRow, minute: number): Promise<ChargeOutcome> {
      const movement = {
        userId: call.userId,
        kind: "call_minute" as const,
        amount: -call.creditsPerMinute,
        sourceKey: minuteSourceKey(call.id, minute),
        metadata: { callId: call.id, minute },
      };
      const result = (await db.execute(sql`
        with c as (
          select user_id, minutes_charged from ${voiceCalls}
          where id = ${call.id} and ended_at is null for update
        ),
        -- Moved only for an open call: the function takes the user from c's row.
        m as (
          select movement_status as status, movement_balance as balance
          from c cross join lateral ${creditMovementCall(movement, sql`c.user_id`)}
        ),
        counters as (
          update ${voiceCalls}
          set minutes_charged = ${minute + 1}, credits_consumed = ${(minute + 1) * call.creditsPerMinute}
          where id = ${call.id} and (select minutes_charged from c) <= ${minute}
            and exists (select 1 from m where m.status in ('applied', 'already'))
        )
        select status, balance from m`)) as unknown as { rows: CreditMovementRow[] };
      const row = result.rows[0];
      if (!row) return { kind: "ended" };
      try {
        const outcome = creditMovementResult(movement, row);
        await noteLowBalanceAfter(db, movement, outcome, call.creditsPerMinute);
        return { kind: "charged", balance: outcome.balance };
      } catch (error) {
        if (error instanceof InsufficientCreditsError) {
          return { kind: "insufficient", balance: error.balance };
        }
        throw error;
      }
    },

    /** Closes one call if it is still open; undefined when it was closed already. */
    async closeCall(
      callId: string,
      reason: VoiceCallEndReason,
      endedAt: Date,
      reportedDurationSeconds?: number,
    ): Promise<VoiceCallRow | undefined> {
      const [row] = await close(
        eq(voiceCalls.id, callId),
        reason,
        endedAt,
        reportedDurationSeconds,
      );
      return row;
    },

    /** Closes the user's open call, if any (POST /api/voice-call/end). */
    async closeOpenCallOf(
      userId: string,
      reason: VoiceCallEndReason,
      endedAt: Date,
      reportedDurationSeconds?: number,
    ): Promise<VoiceCallRow | undefined> {
      const [row] = await close(
        eq(voiceCalls.userId, userId),
        reason,
        endedAt,
        reportedDurationSeconds,
      );
      return row;
    },

    /** Records the client's reported duration on a call closed before the report came. */
    async noteReportedDuration(callId: string, seconds: number): Promise<void> {
      await db
        .update(voiceCalls)
        .set({ reportedDurationSeconds: Math.round(seconds) })
        .where(and(eq(voiceCalls.id, callId), isNull(voiceCalls.reportedDurationSeconds)));
    },

    async findCall(callId: string): Promise<VoiceCallRow | undefined> {
      const [row] = await db.select().from(voiceCalls).where(eq(voiceCalls.id, callId));
      return row;
    },

    /** The user's most recent call. */
    async latestCall(userId: string): Promise<VoiceCallRow | undefined> {
      const [row] = await db
        .select()
        .from(voiceCalls)
        .where(eq(voiceCalls.userId, userId))
        .orderBy(desc(voiceCalls.startedAt))
        .limit(1);
      return row;
    },

    /** A page of the user's calls, newest first (index voice_calls_user_started_idx). */
    async history(userId: string, page: { page: number; limit: number }) {
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
    },

    /**
     * Closes the calls a stopped server left open: an open call whose paid time ended more than
     * `graceMs` ago has no live socket charging it (a live one charges each minute as it starts).
     * It ends at the end of its last paid minute. Safe with several instances sharing the
     * database: a live call is never that late.
     */
    async closeAbandoned(
      now: Date,
      graceMs: number,
      /** The calls live in this process: never abandoned, however late a charge runs. */
      liveHere: string[] = [],
    ): Promise<VoiceCallRow[]> {
      const cutoff = new Date(now.getTime() - graceMs).toISOString();
      return db
        .update(voiceCalls)
        .set({
          endedAt: sql`${voiceCalls.startedAt} + ${voiceCalls.minutesCharged} * interval '60 seconds'`,
          durationSeconds: sql`${voiceCalls.minutesCharged} * 60`,
          endReason: "server",
        })
        .where(
          and(
            isNull(voiceCalls.endedAt),
            liveHere.length > 0 ? notInArray(voiceCalls.id, liveHere) : undefined,
            sql`${voiceCalls.startedAt} + ${voiceCalls.minutesCharged} * interval '60 seconds' < ${cutoff}::timestamptz`,
          ),
        )
        .returning();
    },

    /**
     * Adds `amount` to the user's usage of `day` if it stays within `limits`, atomically (one
     * upsert whose update is conditional): answers whether it was added.
     */
    async addDailyUsage(
      userId: string,
      day: string,
      amount: UsageAmount,
      limits: VoiceUsageLimits,
    ): Promise<boolean> {
      const characters = amount.synthesizedCharacters ?? 0;
      const calls = amount.llmCalls ?? 0;
      if (characters > limits.synthesizedCharacters || calls > limits.llmCalls) return false;
      const rows = await db
        .insert(voiceDailyUsage)
        .values({ userId, day, synthesizedCharacters: characters, llmCalls: calls })
        .onConflictDoUpdate({
          target: [voiceDailyUsage.userId, voiceDailyUsage.day],
          set: {
            synthesizedCharacters: sql`${voiceDailyUsage.synthesizedCharacters} + ${characters}`,
            llmCalls: sql`${voiceDailyUsage.llmCalls} + ${calls}`,
          },
          setWhere: sql`${voiceDailyUsage.synthesizedCharacters} + ${characters} <= ${limits.synthesizedCharacters}
            and ${voiceDailyUsage.llmCalls} + ${calls} <= ${limits.llmCalls}`,
        })
        .returning({ userId: voiceDailyUsage.userId });
      return rows.length > 0;
    },

    /** Takes `amount` counted ahead and not used back off the user's usage of `day`. */
    async giveBackDailyUsage(userId: string, day: string, amount: UsageAmount): Promise<void> {
      const characters = amount.synthesizedCharacters ?? 0;
      const calls = amount.llmCalls ?? 0;
      await db
        .update(voiceDailyUsage)
        .set({
          synthesizedCharacters: sql`greatest(0, ${voiceDailyUsage.synthesizedCharacters} - ${characters})`,
          llmCalls: sql`greatest(0, ${voiceDailyUsage.llmCalls} - ${calls})`,
        })
        .where(and(eq(voiceDailyUsage.userId, userId), eq(voiceDailyUsage.day, day)));
    },

    /** The persona's trained voice (AI training), if any. */
    async voiceId(): Promise<string | null> {
      const result = (await db.execute(
        sql`select voice_id from ai_training limit 1`,
      )) as unknown as {
        rows: { voice_id: string | null }[];
      };
      return result.rows[0]?.voice_id ?? null;
    },
  };
}

export type VoiceRepository = ReturnType<typeof createVoiceRepository>;
