import { bigint, pgTable, smallint } from "drizzle-orm/pg-core";

/**
 * User Analytics' summary cards (docs/decisions/0048): the users (role user) who chatted or
 * called, and the sum of their interaction time in whole seconds (each user's rounded, as the
 * table shows it). Kept by a trigger on `users` whenever a user's kept figures change (migration
 * 0013); each change lands on one of 16 slots at random so concurrent writers rarely wait on one
 * row, and a figure is the sum over the slots.
 */
export const userAnalyticsTotals = pgTable("user_analytics_totals", {
  slot: smallint("slot").primaryKey(),
  users: bigint("users", { mode: "number" }).notNull().default(0),
  seconds: bigint("seconds", { mode: "number" }).notNull().default(0),
});
