import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  adminSitePageResponseSchema,
  adminSitePagesResponseSchema,
  type SitePageSlug,
} from "@twinline/contracts";
import { api } from "@/lib/api-client";

const PAGES_KEY = ["admin", "site-pages"] as const;

/** GET /api/admin/pages: every site page as the admin edits it (placeholders kept). */
export const adminSitePagesQuery = () =>
  queryOptions({
    queryKey: PAGES_KEY,
    queryFn: ({ signal }) =>
      api.get("/api/admin/pages", { signal, token: "admin", schema: adminSitePagesResponseSchema }),
    select: (answer) => answer.data,
  });

/** PUT /api/admin/pages/{slug}: empty content brings the built-in text back. */
export function useSaveSitePage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, content }: { slug: SitePageSlug; content: string }) =>
      api.put(
        `/api/admin/pages/${slug}`,
        { content },
        { token: "admin", schema: adminSitePageResponseSchema },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PAGES_KEY }),
  });
}
