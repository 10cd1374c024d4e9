import { queryOptions } from "@tanstack/react-query";
import { routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";

/**
 * The data-export calls of one account: the fan's own (profile, routes.privacy.latestExport...)
 * when `userId` is absent, else the admin's hand-over on that fan's request
 * (routes.privacy.adminLatestExport..., audited by the server). The same three calls either way:
 * the newest export (polled while it is being built), a new one (built in the background), and
 * its ZIP.
 */
export function dataExportApi(userId: string | undefined, queryKey: readonly unknown[]) {
  const latest = ({ signal }: { signal: AbortSignal }) =>
    userId === undefined
      ? callRoute(routes.privacy.latestExport, { signal })
      : callRoute(routes.privacy.adminLatestExport, { signal, params: { userId } });
  return {
    query: () =>
      queryOptions({
        queryKey,
        queryFn: async ({ signal }) => (await latest({ signal })).data,
        refetchInterval: (query) => {
          const status = query.state.data?.status;
          return status === "queued" || status === "running" ? 3000 : false;
        },
      }),

    request: () =>
      userId === undefined
        ? callRoute(routes.privacy.requestExport)
        : callRoute(routes.privacy.adminRequestExport, { params: { userId } }),

    /** The ZIP as a blob (the Bearer token cannot ride on a plain link); a large one may take a while. */
    async download(exportId: string): Promise<Blob> {
      const options = { responseType: "blob", timeoutMs: 300_000 } as const;
      const body =
        userId === undefined
          ? await callRoute(routes.privacy.downloadExport, { ...options, params: { id: exportId } })
          : await callRoute(routes.privacy.adminDownloadExport, {
              ...options,
              params: { userId, id: exportId },
            });
      // Checked by the route's schema (fileAnswerSchema: bytes, else "invalid-response").
      return body as unknown as Blob;
    },
  };
}
