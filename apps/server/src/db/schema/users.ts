import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export const userRole = pgEnum("user_role", ["user", "admin"]);

/**
 * Accounts, users and admins alike. The e-mail is stored trimmed and lower-case and is unique on
 * lower(email), so no two accounts differ only by case even if a row was written by hand.
 * `credits` is a cache of the credit ledger's balance, only ever changed by credits/ledger.ts.
 * `token_version` is the `ver` claim every valid token carries: a password change or a
 * deactivation bumps it, and every token issued before stops working at once.
 * `first_call_at` and `subscribed_until` are kept by triggers (migration 0011) for the figures
 * read over every user: the admin dashboard's rollup and the chat logs' plan filter.
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
    /** When the user's first voice call started (null: never called). */
    firstCallAt: timestamp("first_call_at", { withTimezone: true }),
    /**
     * Until when the user's current (newest) subscription carries a subscriber's rights:
     * infinity while it is in force and renews, its period end while it is set to cancel, null
     * when none is in force. The rule of billing/subscription-state.ts isInForce, as one indexed column.
     */
    subscribedUntil: timestamp("subscribed_until", { withTimezone: true }),
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
    index("users_credits_idx").on(table.credits),
    index("users_is_active_created_at_idx").on(table.isActive, table.createdAt),
    // The few admins, found without reading every user (the dashboard counts users less admins).
    index("users_admins_idx").on(table.id).where(sql`${table.role} = 'admin'`),
    // Subscribers whose paid period ends today (the dashboard's paid users: those still before
    // their end), found without reading every user.
    index("users_subscribed_until_idx")
      .on(table.subscribedUntil)
      .where(sql`${table.role} = 'user' and ${table.subscribedUntil} is not null`),
    // Case-insensitive substring search (ILIKE '%term%') on name and e-mail: trigram indexes.
    index("users_name_trgm_idx").using("gin", sql`${table.name} gin_trgm_ops`),
    index("users_email_trgm_idx").using("gin", sql`${table.email} gin_trgm_ops`),
  ],
);

export type UserRow = typeof users.$inferSelect;
