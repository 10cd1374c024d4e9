import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/** Mail written while no SMTP_URL is set (and read by tests): what would have been sent. */
export const mailOutbox = pgTable("mail_outbox", {
  id: uuid("id").primaryKey().defaultRandom(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp("sent_at", { withTimezone: true }),
  error: text("error"),
});

export const FAN_EMAIL_STATUSES = ["pending", "sending", "sent", "failed", "skipped"] as const;
export type FanEmailStatus = (typeof FAN_EMAIL_STATUSES)[number];

/**
 * The durable e-mail queue (issue 26, docs/decisions/0066): one row per e-mail the app owes
 * someone. `idempotency_key` is unique and is inserted in the same transaction as the event that
 * causes the mail (a payment, a renewal, a cancellation...), so a replayed webhook or a second
 * sweep adds no second row: each mail is sent once. The sender claims due rows (`pending`, or
 * `sending` whose lease ran out), sends, and marks them `sent`; a failure waits
 * `next_attempt_at` and is tried again, up to a limit (`failed`). `skipped`: not sent on purpose
 * (the fan unsubscribed from that kind, or the account is gone).
 */
export const fanEmails = pgTable(
  "fan_emails",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    kind: text("kind").notNull(),
    /** The fan it is for (their address is read at send time); null for mail to the operator. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** A fixed recipient (the operator's contact address); null: the fan's own address. */
    toAddress: text("to_address"),
    /** What the mail tells (amounts in minor units, dates as ISO strings), rendered at send time. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status").$type<FanEmailStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Null: due at once. Else the next try (or the end of a `sending` lease). */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    check(
      "fan_emails_status",
      sql`${table.status} in ('pending', 'sending', 'sent', 'failed', 'skipped')`,
    ),
    check(
      "fan_emails_recipient",
      sql`${table.userId} is not null or ${table.toAddress} is not null`,
    ),
    // The sender's claim: only the rows still to send, oldest first.
    index("fan_emails_due_idx")
      .on(table.nextAttemptAt, table.createdAt)
      .where(sql`${table.status} in ('pending', 'sending')`),
    // "At most once a week": the fan's latest mail of a kind.
    index("fan_emails_user_kind_idx").on(table.userId, table.kind, table.createdAt),
  ],
);
export type FanEmailRow = typeof fanEmails.$inferSelect;

/**
 * A fan's choice about mail that is not transactional (docs/decisions/0066): a row means they
 * unsubscribed (by the signed link in such a mail) at `unsubscribed_at`. Receipts, notices of
 * failed payments, cancellations and renewal reminders are always sent.
 */
export const mailPreferences = pgTable("mail_preferences", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }).notNull().defaultNow(),
});
