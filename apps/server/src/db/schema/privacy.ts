import { DATA_EXPORT_STATUSES } from "@twinline/contracts";
import { sql } from "drizzle-orm";
import { bigint, index, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

export const dataExportStatus = pgEnum("data_export_status", DATA_EXPORT_STATUSES);

/**
 * "Download my data" (issue 26, decision 0062): one row per export asked, by the fan or by an
 * admin for the fan. The row is the durable state of the background build: a worker claims a
 * queued row (FOR UPDATE SKIP LOCKED), writes the ZIP to private storage under `file_name` and
 * marks it ready until `expires_at` (7 days). Erased with the account.
 */
export const dataExports = pgTable(
  "data_exports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The admin who asked for it on the fan's request (null: the fan asked). */
    requestedBy: uuid("requested_by").references(() => users.id, { onDelete: "set null" }),
    status: dataExportStatus("status").notNull().default("queued"),
    /** The ZIP in private storage (a generated flat name), once built. */
    fileName: text("file_name"),
    sizeBytes: bigint("size_bytes", { mode: "number" }),
    /** Why the build failed (never shown as is: the fan sees "failed, ask again"). */
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (table) => [
    // A fan's exports, newest first (the profile, and the rate limit over the last day).
    index("data_exports_user_created_idx").on(table.userId, table.createdAt.desc()),
    // The worker's queue and the expiry sweep.
    index("data_exports_queued_idx").on(table.createdAt).where(sql`${table.status} = 'queued'`),
    index("data_exports_ready_expires_idx")
      .on(table.expiresAt)
      .where(sql`${table.status} = 'ready'`),
  ],
);
export type DataExportRow = typeof dataExports.$inferSelect;
