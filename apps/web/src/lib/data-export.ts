import { queryOptions } from "@tanstack/react-query";
import { dataExportRequestedResponseSchema, dataExportResponseSchema } from "@twinline/contracts";
import { ApiError, api } from "@/lib/api-client";

/**
 * The data-export calls of one account, under `base`: "/api/users" for the fan's own (profile),
 * "/api/admin/users/{id}" for the admin's hand-over on the fan's request (audited by the server).
 * The same three calls either way: the newest export (polled while it is being built), a new
 * one (built in the background), and its ZIP.
 */
export function dataExportApi(base: string, queryKey: readonly unknown[]) {
  return {
    query: () =>
      queryOptions({
        queryKey,
        queryFn: async ({ signal }) =>
          (await api.get(`${base}/data-export`, { signal, schema: dataExportResponseSchema })).data,
        refetchInterval: (query) => {
          const status = query.state.data?.status;
          return status === "queued" || status === "running" ? 3000 : false;
        },
      }),

    request: () =>
      api.post(`${base}/data-export`, undefined, { schema: dataExportRequestedResponseSchema }),

    /** The ZIP as a blob (the Bearer token cannot ride on a plain link); a large one may take a while. */
    async download(exportId: string): Promise<Blob> {
      const body = await api.get(`${base}/data-export/${encodeURIComponent(exportId)}/download`, {
        responseType: "blob",
        timeoutMs: 300_000,
      });
      if (!body || typeof body !== "object" || !("size" in body)) {
        throw new ApiError("The download could not be read", {
          status: 200,
          body,
          kind: "invalid-response",
        });
      }
      return body as Blob;
    },
  };
}
