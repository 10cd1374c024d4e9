import { queryOptions } from "@tanstack/react-query";
import {
  authConfigResponseSchema,
  type DeleteAccountRequest,
  messageResponseSchema,
} from "@twinline/contracts";
import { api } from "@/lib/api-client";
import { dataExportApi } from "@/lib/data-export";

const ownExport = dataExportApi("/api/users", ["data-export"]);

/** GET /api/users/data-export: the newest export; polled while it is being built. */
export const dataExportQuery = ownExport.query;

/** POST /api/users/data-export: built in the background, announced by e-mail. */
export const requestDataExport = ownExport.request;

/** GET /api/users/data-export/{id}/download: the ZIP as a blob. */
export const downloadDataExport = ownExport.download;

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
