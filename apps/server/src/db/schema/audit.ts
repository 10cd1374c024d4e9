import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * Every admin write (issue 16): who, what, on which target, before and after (secrets masked),
 * when and from which address. Append-only; each filter of the admin's screen has its index.
 */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    adminId: uuid("admin_id").references(() => users.id, { onDelete: "set null" }),
    /** Kept as it was: the account may be renamed or deleted later. */
    adminEmail: text("admin_email").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    before: jsonb("before").$type<unknown>(),
    after: jsonb("after").$type<unknown>(),
    ip: text("ip").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("admin_audit_log_created_idx").on(table.createdAt, table.id),
    index("admin_audit_log_admin_created_idx").on(table.adminId, table.createdAt),
    index("admin_audit_log_action_created_idx").on(table.action, table.createdAt),
    index("admin_audit_log_target_idx").on(table.targetType, table.targetId, table.createdAt),
  ],
);
export type AdminAuditLogRow = typeof adminAuditLog.$inferSelect;
