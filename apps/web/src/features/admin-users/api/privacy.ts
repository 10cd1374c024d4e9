import { routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";
import { dataExportApi } from "@/lib/data-export";

const userExport = (userId: string) =>
  dataExportApi(userId, ["admin", "users", "data-export", userId]);

/** routes.privacy.adminLatestExport: the fan's newest export; polled while it is built. */
export const adminDataExportQuery = (userId: string) => userExport(userId).query();

/** routes.privacy.adminRequestExport: on the fan's request (audited). */
export const requestUserDataExport = (userId: string) => userExport(userId).request();

/** The fan's ZIP as a blob, to hand over (the download is audited). */
export const downloadUserDataExport = (userId: string, exportId: string) =>
  userExport(userId).download(exportId);

/** routes.privacy.adminDeleteAccount: the fan's account, on their request (audited). */
export function deleteUserAccount(userId: string) {
  return callRoute(routes.privacy.adminDeleteAccount, {
    params: { userId },
    body: { confirmation: "DELETE" },
  });
}
