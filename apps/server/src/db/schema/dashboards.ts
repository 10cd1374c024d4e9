import { bigint, date, pgTable, primaryKey, smallint } from "drizzle-orm/pg-core";
import { billingCurrency } from "./billing.ts";

/**
 * The admin dashboard's figures per UTC day (docs/decisions/0027), kept by triggers on `users`,
 * `voice_calls` (hand-written in migration 0011: drizzle cannot express triggers),
 * so every figure reads a few hundred rows however large the tables grow. Each change lands on
 * one of 16 slots at random, so concurrent writers rarely wait on one row; a figure is the sum
 * over the slots.
 * - `signups`, `callers`, `subscribers`: accounts with the user role, on the UTC day they signed
 *   up: each one, those who have ever called (`users.first_call_at`), and those whose
 *   subscription renews (`users.subscribed_until` = infinity).
 * - `cancelling`: accounts with the user role whose subscription is set to cancel, on the UTC day
 *   their paid period ends (`users.subscribed_until`): the days after today are still paid.
 * - `call_seconds`: call durations, on the day the call started.
 */
export const dashboardDays = pgTable(
  "dashboard_days",
  {
    day: date("day", { mode: "string" }).notNull(),
    slot: smallint("slot").notNull(),
    signups: bigint("signups", { mode: "number" }).notNull().default(0),
    callers: bigint("callers", { mode: "number" }).notNull().default(0),
    subscribers: bigint("subscribers", { mode: "number" }).notNull().default(0),
    cancelling: bigint("cancelling", { mode: "number" }).notNull().default(0),
    callSeconds: bigint("call_seconds", { mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.slot] })],
);

/**
 * Revenue per UTC day and currency (docs/decisions/0027, 0036): successful payments of each kind
 * in minor units, on the day of their transaction, kept by triggers on `payments` (hand-written
 * in migration 0014). Currencies are never added together: the dashboard and the transaction
 * screens' Revenue Analytics read one figure per currency. 16 slots per day and currency, as
 * dashboard_days.
 */
export const revenueDays = pgTable(
  "revenue_days",
  {
    day: date("day", { mode: "string" }).notNull(),
    currency: billingCurrency("currency").notNull(),
    slot: smallint("slot").notNull(),
    creditsMinor: bigint("credits_minor", { mode: "number" }).notNull().default(0),
    subscriptionMinor: bigint("subscription_minor", { mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.currency, table.slot] })],
);
