import {
  adminSitePageResponseSchema,
  adminSitePagesResponseSchema,
  SITE_PAGE_MESSAGES,
  sitePageResponseSchema,
  sitePageSlugSchema,
  updateSitePageRequestSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { HttpError } from "../../plugins/errors.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import type { SitePagesService } from "./pages-service.ts";

const tags = ["pages"];
export const PAGE_NOT_FOUND = "Page not found";

/** GET /api/pages/{slug}: a legal or company page, to anyone. */
export const sitePagesRoutes: FastifyPluginAsyncZod<{ pages: SitePagesService }> = async (
  app,
  { pages },
) => {
  app.get(
    "/api/pages/:slug",
    {
      schema: {
        tags,
        summary: "A site page (terms, privacy, refunds, about, contact, faq) in markdown",
        params: z.object({ slug: z.string() }),
        response: { 200: sitePageResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const slug = sitePageSlugSchema.safeParse(request.params.slug);
      if (!slug.success) throw new HttpError(404, PAGE_NOT_FOUND);
      return { success: true as const, data: await pages.page(slug.data) };
    },
  );
};

/** The admin's editor of the site pages (registered through adminGuarded). */
export const adminSitePagesRoutes: FastifyPluginAsyncZod<{ pages: SitePagesService }> = async (
  app,
  { pages },
) => {
  const errors = errorResponses(400, 401, 403);
  app.get(
    "/api/admin/pages",
    {
      schema: {
        tags,
        security: bearerSecurity,
        summary: "Every site page as saved, or its built-in text, placeholders kept",
        response: { 200: adminSitePagesResponseSchema, ...errors },
      },
    },
    async () => ({ success: true as const, data: await pages.adminPages() }),
  );

  app.put(
    "/api/admin/pages/:slug",
    {
      schema: {
        tags,
        security: bearerSecurity,
        summary: "Saves a site page's markdown; empty brings back the built-in text",
        params: z.object({ slug: sitePageSlugSchema }),
        body: updateSitePageRequestSchema,
        response: { 200: adminSitePageResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: SITE_PAGE_MESSAGES.saved,
      data: await pages.save(request.params.slug, request.body.content),
    }),
  );
};
