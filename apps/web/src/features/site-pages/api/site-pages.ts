import { queryOptions } from "@tanstack/react-query";
import { type SitePageSlug, sitePageResponseSchema } from "@twinline/contracts";
import { api } from "@/lib/api-client";

/** GET /api/pages/{slug}: the page a visitor reads, names filled in. */
export const sitePageQuery = (slug: SitePageSlug) =>
  queryOptions({
    queryKey: ["site-pages", slug] as const,
    queryFn: ({ signal }) =>
      api.get(`/api/pages/${slug}`, { signal, schema: sitePageResponseSchema }),
    select: (answer) => answer.data,
  });
