import { sql } from "drizzle-orm";
import { boolean, check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * The browsers a fan opted in to Web Push from (issue 27 item 3, docs/decisions/0082): one row
 * per push subscription (PushSubscription.toJSON()). An endpoint the push service answers 404
 * or 410 for is deleted; deleting the account deletes them (cascade).
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The push service's URL for this browser (https, at most 1000 characters). */
    endpoint: text("endpoint").notNull().unique(),
    /** The browser's P-256 public key and auth secret (base64url), for the payload's encryption. */
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("push_subscriptions_user_idx").on(table.userId)],
);
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * Which notifications a fan wants (all on once they turn notifications on; they uncheck any), and whether a tab of theirs is
 * visible: `visible_until` is moved on by the web while a tab is shown (docs/decisions/0082).
 */
export const pushPreferences = pgTable("push_preferences", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  reply: boolean("reply").notNull().default(true),
  lowBalance: boolean("low_balance").notNull().default(true),
  renewalFailed: boolean("renewal_failed").notNull().default(true),
  visibleUntil: timestamp("visible_until", { withTimezone: true }),
});

export const PUSH_NOTICE_STATUSES = ["pending", "sent", "failed"] as const;

/**
 * The push queue: one row per notification owed to a fan, inserted where the event happens (in
 * its transaction for money events), so it exists exactly when the event committed; the
 * `idempotency_key` makes a replay add nothing. Frequency caps are read from it (a fan's latest
 * notice of a kind). The sender sends pending rows to every subscription of the fan.
 */
export const pushNotices = pgTable(
  "push_notices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status").notNull().default("pending"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    check("push_notices_status", sql`${table.status} in ('pending', 'sent', 'failed')`),
    index("push_notices_pending_idx").on(table.createdAt).where(sql`${table.status} = 'pending'`),
    index("push_notices_user_kind_idx").on(table.userId, table.kind, table.createdAt),
  ],
);
