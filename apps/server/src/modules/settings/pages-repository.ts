import type { SitePageSlug } from "@twinline/contracts";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { sitePages } from "../../db/schema/index.ts";

export interface SitePagesRepository {
  /** The admin's saved markdown of each page that has any. */
  readAll(): Promise<Map<SitePageSlug, string>>;
  read(slug: SitePageSlug): Promise<string | undefined>;
  /** Saves a page's markdown; empty removes it, so the built-in text shows again. */
  write(slug: SitePageSlug, content: string): Promise<void>;
}

export function createSitePagesRepository(db: Database): SitePagesRepository {
  return {
    async readAll() {
      const rows = await db.select().from(sitePages);
      return new Map(rows.map((row) => [row.slug as SitePageSlug, row.content]));
    },
    async read(slug) {
      const rows = await db
        .select({ content: sitePages.content })
        .from(sitePages)
        .where(eq(sitePages.slug, slug));
      return rows[0]?.content;
    },
    async write(slug, content) {
      if (content === "") {
        await db.delete(sitePages).where(eq(sitePages.slug, slug));
        return;
      }
      await db
        .insert(sitePages)
        .values({ slug, content })
        .onConflictDoUpdate({
          target: sitePages.slug,
          set: { content, updatedAt: sql`now()` },
        });
    },
  };
}
