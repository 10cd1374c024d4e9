import { queryOptions } from "@tanstack/react-query";
import { routes, type SitePageSlug } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";

/** GET /api/pages/{slug}: the page a visitor reads, names filled in. */
export const sitePageQuery = (slug: SitePageSlug) =>
  queryOptions({
    queryKey: ["site-pages", slug] as const,
    queryFn: ({ signal }) => callRoute(routes.sitePages.page, { params: { slug }, signal }),
    select: (answer) => answer.data,
  });
