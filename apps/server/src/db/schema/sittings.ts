import { pgTable, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * A fan's current sitting (docs/decisions/0058-ai-notice-and-sittings.md): activity on chat or
 * call with no gap longer than SITTING_GAP_MS. Times are the app's clock (lib/clock.ts), never
 * the browser's, so tests move them. One row per fan, moved by a compare-and-set on its version
 * (`xmin`, decision 0076), so two instances never give the same notice twice.
 */
export const fanSittings = pgTable("fan_sittings", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** When this sitting began (the first activity after a gap). */
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  /** The fan's last activity: a chat message, a call opened, a live call's heartbeat. */
  lastActiveAt: timestamp("last_active_at", { withTimezone: true }).notNull(),
  /** The last AI notice given (chat or call). */
  noticeAt: timestamp("notice_at", { withTimezone: true }).notNull(),
  /** The last break reminder, or the sitting's start while none was given in it. */
  breakAt: timestamp("break_at", { withTimezone: true }).notNull(),
});

export type FanSittingRow = typeof fanSittings.$inferSelect;
