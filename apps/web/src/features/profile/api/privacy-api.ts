import { queryOptions } from "@tanstack/react-query";
import { type DeleteAccountRequest, routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";
import { dataExportApi } from "@/lib/data-export";

const ownExport = dataExportApi(undefined, ["data-export"]);

/** routes.privacy.latestExport: the newest export; polled while it is being built. */
export const dataExportQuery = ownExport.query;

/** routes.privacy.requestExport: built in the background, announced by e-mail. */
export const requestDataExport = ownExport.request;

/** routes.privacy.downloadExport: the ZIP as a blob. */
export const downloadDataExport = ownExport.download;

/** routes.privacy.deleteAccount: the account is gone when it answers. */
export function deleteAccount(body: DeleteAccountRequest) {
  return callRoute(routes.privacy.deleteAccount, { body });
}

/**
 * routes.auth.config: the Google client id (for a Google-only account's confirmation), or null
 * when off.
 */
export const googleClientIdQuery = queryOptions({
  queryKey: ["privacy", "google-client-id"],
  queryFn: async () => (await callRoute(routes.auth.config)).googleClientId,
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});
