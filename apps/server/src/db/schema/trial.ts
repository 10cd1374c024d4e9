import { sql } from "drizzle-orm";
import {
  bigint,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { chatSender, crisisCategory, crisisSource, productMessageKind } from "./chat.ts";
import { users } from "./users.ts";

/** A visitor's AI-notice sitting, as modules/chat/sitting.ts keeps it (app clock, ms). */
export interface TrialSitting {
  startedAt: number;
  lastActiveAt: number;
  noticeAt: number;
  breakAt: number;
}

/**
 * The anonymous trial of one device (issue 27 item 1; docs/decisions/0084-anonymous-trial.md):
 * `device_id` is the random id of the device's signed, httpOnly cookie. `message_count` counts
 * the visitor's messages against the operator's allowance; the row stays after the hand-over
 * (`claimed_at`), so signing out does not give the device a fresh allowance. Rows whose last
 * activity is older than 30 days are deleted by the `trial.cleanup` job, their messages with them.
 */
export const trialConversations = pgTable(
  "trial_conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deviceId: text("device_id").notNull().unique(),
    messageCount: integer("message_count").notNull().default(0),
    startedAt: timestamp("started_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
    /** The AI notice's sitting (the member chat's rule, applied to the visitor). */
    sitting: jsonb("sitting").$type<TrialSitting>(),
    /** The account the conversation was handed to (once, at sign-up or sign-in). */
    claimedBy: uuid("claimed_by").references(() => users.id, { onDelete: "set null" }),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
  },
  (table) => [index("trial_conversations_last_message_idx").on(table.lastMessageAt)],
);

/** The messages of a trial conversation, in the member chat's shape, until the hand-over. */
export const trialMessages = pgTable(
  "trial_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    trialId: uuid("trial_id")
      .notNull()
      .references(() => trialConversations.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    sender: chatSender("sender").notNull(),
    productKind: productMessageKind("product_kind"),
    content: text("content").notNull(),
    /** The crisis check flagged the visitor's words (kept forgotten after the hand-over). */
    flagCategory: crisisCategory("flag_category"),
    flagSource: crisisSource("flag_source"),
    createdAt: timestamp("created_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [index("trial_messages_trial_seq_idx").on(table.trialId, table.seq)],
);

/**
 * Anonymous messages per UTC day, by client address (`scope` 'address', `key` a digest of the
 * address, never the address itself) and for the whole site (`scope` 'site', `key` ''): the caps
 * that bound what visitors without an account can spend of the operator's provider budget.
 */
export const trialDailyUsage = pgTable(
  "trial_daily_usage",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    day: date("day").notNull(),
    count: integer("count").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.scope, table.key, table.day] })],
);

export type TrialConversationRow = typeof trialConversations.$inferSelect;
export type TrialMessageRow = typeof trialMessages.$inferSelect;
