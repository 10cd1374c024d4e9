import { routes, SITE_PAGE_MESSAGES, sitePageSlugSchema } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { HttpError } from "../../plugins/errors.ts";
import { registerRoute } from "../../plugins/routes.ts";
import type { SitePagesService } from "./pages-service.ts";

export const PAGE_NOT_FOUND = "Page not found";

/** GET /api/pages/{slug}: a legal or company page, to anyone. */
export const sitePagesRoutes: FastifyPluginAsync<{ pages: SitePagesService }> = async (
  app,
  { pages },
) => {
  registerRoute(app, routes.sitePages.page, async (request) => {
    const slug = sitePageSlugSchema.safeParse(request.params.slug);
    if (!slug.success) throw new HttpError(404, PAGE_NOT_FOUND);
    return { success: true as const, data: await pages.page(slug.data) };
  });
};

/** The admin's editor of the site pages (access "admin" in the table). */
export const adminSitePagesRoutes: FastifyPluginAsync<{ pages: SitePagesService }> = async (
  app,
  { pages },
) => {
  registerRoute(app, routes.sitePages.adminList, async () => ({
    success: true as const,
    data: await pages.adminPages(),
  }));

  registerRoute(app, routes.sitePages.adminSave, async (request) => ({
    success: true as const,
    message: SITE_PAGE_MESSAGES.saved,
    data: await pages.save(request.params.slug, request.body.content),
  }));
};
