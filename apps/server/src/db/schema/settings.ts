import type { PublicSettings } from "@twinline/contracts";
import { sql } from "drizzle-orm";
import { boolean, check, jsonb, pgTable, timestamp } from "drizzle-orm/pg-core";

/**
 * The site settings: exactly one row. `data` holds the public settings document (validated by
 * the contracts schema and merged over the defaults on read), so adding a setting needs no
 * migration. Provider keys will get their own encrypted column or table; they never go in `data`.
 */
export const siteSettings = pgTable(
  "site_settings",
  {
    // Always true: the primary key plus the check make a second row impossible.
    singleton: boolean("singleton").primaryKey().default(true),
    data: jsonb("data").$type<Partial<PublicSettings>>().notNull().default({}),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("site_settings_singleton", sql`${table.singleton}`)],
);
