import { queryOptions } from "@tanstack/react-query";
import {
  authConfigResponseSchema,
  type DeleteAccountRequest,
  dataExportRequestedResponseSchema,
  dataExportResponseSchema,
  messageResponseSchema,
} from "@twinline/contracts";
import { ApiError, api } from "@/lib/api-client";

/** GET /api/users/data-export: the newest export; polled while it is being built. */
export const dataExportQuery = () =>
  queryOptions({
    queryKey: ["data-export"] as const,
    queryFn: async ({ signal }) =>
      (await api.get("/api/users/data-export", { signal, schema: dataExportResponseSchema })).data,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === "queued" || status === "running" ? 3000 : false;
    },
  });

/** POST /api/users/data-export: built in the background, announced by e-mail. */
export function requestDataExport() {
  return api.post("/api/users/data-export", undefined, {
    schema: dataExportRequestedResponseSchema,
  });
}

/** The ZIP as a blob (the Bearer token cannot ride on a plain link); a large one may take a while. */
export async function downloadDataExport(id: string): Promise<Blob> {
  const body = await api.get(`/api/users/data-export/${encodeURIComponent(id)}/download`, {
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
}

/** POST /api/users/delete-account: the account is gone when it answers. */
export function deleteAccount(body: DeleteAccountRequest) {
  return api.post("/api/users/delete-account", body, { schema: messageResponseSchema });
}

/** The Google client id (for a Google-only account's confirmation), or null when off. */
export const googleClientIdQuery = queryOptions({
  queryKey: ["privacy", "google-client-id"],
  queryFn: async () =>
    (await api.get("/api/auth/config", { schema: authConfigResponseSchema })).googleClientId,
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});
