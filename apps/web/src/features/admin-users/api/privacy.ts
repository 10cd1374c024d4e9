import { messageResponseSchema } from "@twinline/contracts";
import { api } from "@/lib/api-client";
import { dataExportApi } from "@/lib/data-export";

const userPath = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}`;
const userExport = (userId: string) =>
  dataExportApi(userPath(userId), ["admin", "users", "data-export", userId]);

/** GET /api/admin/users/{id}/data-export: the fan's newest export; polled while it is built. */
export const adminDataExportQuery = (userId: string) => userExport(userId).query();

/** POST /api/admin/users/{id}/data-export: on the fan's request (audited). */
export const requestUserDataExport = (userId: string) => userExport(userId).request();

/** The fan's ZIP as a blob, to hand over (the download is audited). */
export const downloadUserDataExport = (userId: string, exportId: string) =>
  userExport(userId).download(exportId);

/** DELETE /api/admin/users/{id}: the fan's account, on their request (audited). */
export function deleteUserAccount(userId: string) {
  return api.delete(userPath(userId), {
    body: { confirmation: "DELETE" },
    schema: messageResponseSchema,
  });
}
