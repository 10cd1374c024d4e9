import { sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { type VoiceCallRow, voiceCalls } from "../../../db/schema/index.ts";
import {
  applyCreditMovement,
  type CreditMovementRow,
  creditMovementCall,
  creditMovementResult,
  InsufficientCreditsError,
  noteLowBalanceAfter,
} from "../../credits/ledger.ts";
import { closeAbandonedOf } from "./close-calls.ts";

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

export interface StartCallInput {
  userId: string;
  now: () => Date;
  creditsPerMinute: number;
  abandonedGraceMs: number;
}

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
export async function startCall(db: Database, input: StartCallInput): Promise<StartOutcome> {
  try {
    return await db.transaction(async (tx) => {
      const startedAt = input.now();
      await closeAbandonedOf(tx, input.userId, startedAt, input.abandonedGraceMs);
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
}

/**
 * Charges minute `minute` (1 is the second) of an open call: the ledger entry and the call's
 * counters in one statement (one round trip: on PGlite's one connection a transaction of
 * several would hold the database through each), the call's row locked first. A minute
 * already charged changes nothing; a closed call is not charged.
 */
export async function chargeMinute(
  db: Database,
  call: VoiceCallRow,
  minute: number,
): Promise<ChargeOutcome> {
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
}
