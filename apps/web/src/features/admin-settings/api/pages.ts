import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { routes, type SitePageSlug } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";

const PAGES_KEY = ["admin", "site-pages"] as const;

/** GET /api/admin/pages: every site page as the admin edits it (placeholders kept). */
export const adminSitePagesQuery = () =>
  queryOptions({
    queryKey: PAGES_KEY,
    queryFn: ({ signal }) => callRoute(routes.sitePages.adminList, { signal }),
    select: (answer) => answer.data,
  });

/** PUT /api/admin/pages/{slug}: empty content brings the built-in text back. */
export function useSaveSitePage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, content }: { slug: SitePageSlug; content: string }) =>
      callRoute(routes.sitePages.adminSave, { params: { slug }, body: { content } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PAGES_KEY }),
  });
}
