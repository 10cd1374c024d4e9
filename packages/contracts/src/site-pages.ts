import { z } from "zod";
import { SITE_PAGE_MAX_LENGTH, SITE_PAGE_SLUGS } from "./site-pages-constants";
import { safeText } from "./text";

export * from "./site-pages-constants";

export const sitePageSlugSchema = z.enum(SITE_PAGE_SLUGS, {
  error: `Page must be one of ${SITE_PAGE_SLUGS.join(", ")}`,
});

/** GET /api/pages/{slug}: the page as a visitor reads it, placeholders filled in. */
export const sitePageSchema = z.object({
  slug: sitePageSlugSchema,
  title: z.string(),
  /** Markdown; rendered without raw HTML. */
  content: z.string(),
});
export type SitePage = z.infer<typeof sitePageSchema>;
export const sitePageResponseSchema = z.object({ success: z.literal(true), data: sitePageSchema });

/** GET /api/admin/pages: each page as the admin edits it, placeholders kept. */
export const adminSitePageSchema = sitePageSchema.extend({
  /** True while the page shows the built-in text (nothing saved, or saved empty). */
  isDefault: z.boolean(),
});
export type AdminSitePage = z.infer<typeof adminSitePageSchema>;
export const adminSitePagesResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(adminSitePageSchema),
});

export const SITE_PAGE_MESSAGES = {
  saved: "Page saved",
  tooLong: `A page can hold at most ${SITE_PAGE_MAX_LENGTH} characters`,
} as const;

/** PUT /api/admin/pages/{slug}: the page's markdown; empty brings back the built-in text. */
export const updateSitePageRequestSchema = z.object({
  content: safeText().max(SITE_PAGE_MAX_LENGTH, { error: SITE_PAGE_MESSAGES.tooLong }),
});
export type UpdateSitePageRequest = z.infer<typeof updateSitePageRequestSchema>;
export const adminSitePageResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: adminSitePageSchema,
});
