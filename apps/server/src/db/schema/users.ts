import { USER_ROLES } from "@twinline/contracts";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export const userRole = pgEnum("user_role", USER_ROLES);

/**
 * Accounts, users and admins alike. The e-mail is stored trimmed and lower-case and is unique on
 * lower(email), so no two accounts differ only by case even if a row was written by hand.
 * `credits` is a cache of the credit ledger's balance, only ever changed by credits/ledger.ts.
 * `token_version` is the `ver` claim every valid token carries: a password change or a
 * deactivation bumps it, and every token issued before stops working at once.
 * `first_call_at` and `subscribed_until` are kept by triggers (migration 0011) for the figures
 * read over every user: the admin dashboard's rollup and the chat logs' plan filter.
 * `interaction_micros`, `credits_used`, `last_message_at` and `last_call_at` are kept by triggers
 * (migration 0016, docs/decisions/0048) for User Analytics; `last_interaction_at` and
 * `last_active_at` follow from them and `last_login`.
 */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    googleId: text("google_id").unique(),
    role: userRole("role").notNull().default("user"),
    profileImage: text("profile_image"),
    credits: integer("credits").notNull().default(0),
    isActive: boolean("is_active").notNull().default(true),
    tokenVersion: integer("token_version").notNull().default(0),
    lastLogin: timestamp("last_login", { withTimezone: true }),
    /**
     * Given at sign-up (issue 25, decision 0054); null only for accounts made before the age
     * gate, which are asked for it before their next chat or call. The fan cannot change it.
     */
    dateOfBirth: date("date_of_birth", { mode: "string" }),
    /** When the user's first voice call started (null: never called). */
    firstCallAt: timestamp("first_call_at", { withTimezone: true }),
    /**
     * Until when the user's current (newest) subscription carries a subscriber's rights:
     * infinity while it is in force and renews, its period end while it is set to cancel, null
     * when none is in force. The rule of users/subscription-state.ts isInForce, as one indexed column.
     */
    subscribedUntil: timestamp("subscribed_until", { withTimezone: true }),
    /**
     * Chat time (decision 0026: gaps of at most 30 minutes between consecutive messages, plus 30 s
     * per message the user sent) and call seconds, in microseconds so the kept sum stays exact.
     */
    interactionMicros: bigint("interaction_micros", { mode: "number" }).notNull().default(0),
    /** Credits spent in all: the sum of the user's negative ledger entries, as a positive number. */
    creditsUsed: bigint("credits_used", { mode: "number" }).notNull().default(0),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }),
    /** The end of the user's latest call (its start while it is live). */
    lastCallAt: timestamp("last_call_at", { withTimezone: true }),
    /** Null for a user who never chatted nor called: they are not in User Analytics. */
    lastInteractionAt: timestamp("last_interaction_at", { withTimezone: true }).generatedAlwaysAs(
      sql`greatest(last_message_at, last_call_at)`,
    ),
    /** "Last Active" in the admin's users list: the last sign-in, message or call. */
    lastActiveAt: timestamp("last_active_at", { withTimezone: true }).generatedAlwaysAs(
      sql`greatest(last_login, last_message_at, last_call_at)`,
    ),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("users_credits_not_negative", sql`${table.credits} >= 0`),
    // Unique and the index behind sorting by e-mail (the list sorts on lower(email)).
    uniqueIndex("users_email_lower_unique").on(sql`lower(${table.email})`),
    // The admin users list: one index per sort column; the status filter leads its own index.
    index("users_created_at_idx").on(table.createdAt),
    index("users_name_lower_idx").on(sql`lower(${table.name})`),
    index("users_last_login_idx").on(table.lastLogin),
    // "Last Active" sorts newest first with the never-active last: the index in that order.
    index("users_last_active_at_idx").on(table.lastActiveAt.desc().nullsLast()),
    index("users_credits_idx").on(table.credits),
    index("users_is_active_created_at_idx").on(table.isActive, table.createdAt),
    // The few admins, found without reading every user (the dashboard counts users less admins).
    index("users_admins_idx").on(table.id).where(sql`${table.role} = 'admin'`),
    // Subscribers whose paid period ends today (the dashboard's paid users: those still before
    // their end), found without reading every user.
    index("users_subscribed_until_idx")
      .on(table.subscribedUntil)
      .where(sql`${table.role} = 'user' and ${table.subscribedUntil} is not null`),
    // User Analytics: the users who chatted or called, one index per sort (id breaks ties).
    ...analyticsIndexes(table),
    // Case-insensitive substring search (ILIKE '%term%') on name and e-mail: trigram indexes.
    index("users_name_trgm_idx").using("gin", sql`${table.name} gin_trgm_ops`),
    index("users_email_trgm_idx").using("gin", sql`${table.email} gin_trgm_ops`),
  ],
);

function analyticsIndexes(table: {
  id: AnyPgColumn;
  role: AnyPgColumn;
  name: AnyPgColumn;
  email: AnyPgColumn;
  interactionMicros: AnyPgColumn;
  creditsUsed: AnyPgColumn;
  lastInteractionAt: AnyPgColumn;
}) {
  const interacted = sql`${table.role} = 'user' and ${table.lastInteractionAt} is not null`;
  return [
    index("users_analytics_last_idx").on(table.lastInteractionAt, table.id).where(interacted),
    index("users_analytics_time_idx").on(table.interactionMicros, table.id).where(interacted),
    index("users_analytics_credits_idx").on(table.creditsUsed, table.id).where(interacted),
    index("users_analytics_name_idx").on(sql`lower(${table.name})`, table.id).where(interacted),
    index("users_analytics_email_idx").on(sql`lower(${table.email})`, table.id).where(interacted),
  ];
}

export type UserRow = typeof users.$inferSelect;
