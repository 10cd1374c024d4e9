import type { SiteSettings } from "@twinline/contracts";
import { eq, sql } from "drizzle-orm";
import { type NotifyingStep, writeAndNotify } from "../../db/cached-by-notify.ts";
import type { Database } from "../../db/client.ts";
import { siteSettings } from "../../db/schema/index.ts";

/** The PostgreSQL channel on which every instance hears that the settings changed. */
export const SETTINGS_CHANGED_CHANNEL = "settings_changed";

/** What is stored: only the fields ever set; the defaults fill in the rest on read. */
export type StoredSettings = Partial<SiteSettings>;

export interface SettingsRepository {
  /** The stored document, or undefined before the first save. */
  read(): Promise<StoredSettings | undefined>;
  /**
   * Replaces the stored document with `change(current)` under a row lock, so two concurrent
   * updates both land, and announces the change to every instance when the transaction commits.
   * `alongside` (the provider keys) is written in the same transaction: all or nothing.
   */
  update(
    change: (current: StoredSettings) => StoredSettings,
    alongside?: readonly NotifyingStep[],
  ): Promise<StoredSettings>;
}

export function createSettingsRepository(db: Database): SettingsRepository {
  return {
    async read() {
      const rows = await db.select({ data: siteSettings.data }).from(siteSettings).limit(1);
      return rows[0]?.data;
    },

    async update(change, alongside = []) {
      // NOTIFYs every instance at commit, and this process's listeners once it is over.
      return writeAndNotify(
        db,
        SETTINGS_CHANGED_CHANNEL,
        async (tx) => {
          await tx.insert(siteSettings).values({ data: {} }).onConflictDoNothing();
          const [row] = await tx
            .select({ data: siteSettings.data })
            .from(siteSettings)
            .where(eq(siteSettings.singleton, true))
            .for("update");
          const next = change(row?.data ?? {});
          await tx
            .update(siteSettings)
            .set({ data: next, updatedAt: sql`now()` })
            .where(eq(siteSettings.singleton, true));
          return next;
        },
        alongside,
      );
    },
  };
}
