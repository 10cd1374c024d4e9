import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/** Why a call ended (null while it is live). */
export const voiceCallEndReason = pgEnum("voice_call_end_reason", [
  /** The user hung up (socket closed normally, `end` message or POST /api/voice-call/end). */
  "hangup",
  /** The socket dropped. */
  "dropped",
  /** The credits ran out. */
  "credits",
  /** A newer call of the same user took over. */
  "replaced",
  /** The server stopped; closed at boot or by the sweep, at the end of its last paid minute. */
  "server",
  /** The session that opened it ended: logout, password change or reset, deactivation. */
  "session",
]);

/**
 * One voice call. A minute is charged as it starts (credit ledger, source key
 * `call:<id>:<minute>`), in the same transaction that raises `minutes_charged` and
 * `credits_consumed`; the call is closed exactly once (`ended_at` set while null), and then
 * `duration_seconds` is clamped so that ceil(duration / 60) = minutes_charged: the cost the spec
 * states is exactly the ledger's sum (docs/decisions/0022-call-metering.md).
 */
export const voiceCalls = pgTable(
  "voice_calls",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    durationSeconds: integer("duration_seconds").notNull().default(0),
    minutesCharged: integer("minutes_charged").notNull().default(0),
    /** The rate in force when the call started (settings may change during the call). */
    creditsPerMinute: integer("credits_per_minute").notNull(),
    creditsConsumed: integer("credits_consumed").notNull().default(0),
    endReason: voiceCallEndReason("end_reason"),
    /** What the client reported to POST /api/voice-call/end, if it did (not billed on). */
    reportedDurationSeconds: integer("reported_duration_seconds"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("voice_calls_credits_not_negative", sql`${table.creditsConsumed} >= 0`),
    // A user's call history, newest first.
    index("voice_calls_user_started_idx").on(table.userId, table.startedAt.desc()),
    // The admin's aggregates by day (calls, minutes, credits over a date range).
    index("voice_calls_started_at_idx").on(table.startedAt),
    // One live call per user, on every instance: a second open call cannot be inserted.
    uniqueIndex("voice_calls_one_open_per_user")
      .on(table.userId)
      .where(sql`${table.endedAt} is null`),
    // The sweep that closes calls a stopped server left open.
    index("voice_calls_open_idx").on(table.startedAt).where(sql`${table.endedAt} is null`),
  ],
);

export type VoiceCallRow = typeof voiceCalls.$inferSelect;
export type VoiceCallEndReason = (typeof voiceCallEndReason.enumValues)[number];

/**
 * What a user spent today on the operator's providers outside a paid call (POST
 * /api/voice-call/synthesize and /process): raised atomically up to the daily caps
 * (docs/decisions/0040-abuse-limits.md).
 */
export const voiceDailyUsage = pgTable(
  "voice_daily_usage",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The UTC day. */
    day: date("day").notNull(),
    synthesizedCharacters: integer("synthesized_characters").notNull().default(0),
    llmCalls: integer("llm_calls").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] })],
);
