import { queryOptions } from "@tanstack/react-query";
import {
  dataExportRequestedResponseSchema,
  dataExportResponseSchema,
  messageResponseSchema,
} from "@twinline/contracts";
import { ApiError, api } from "@/lib/api-client";

const userPath = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}`;

/** GET /api/admin/users/{id}/data-export: the fan's newest export; polled while it is built. */
export const adminDataExportQuery = (userId: string) =>
  queryOptions({
    queryKey: ["admin", "users", "data-export", userId] as const,
    queryFn: async ({ signal }) =>
      (
        await api.get(`${userPath(userId)}/data-export`, {
          signal,
          schema: dataExportResponseSchema,
        })
      ).data,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === "queued" || status === "running" ? 3000 : false;
    },
  });

/** POST /api/admin/users/{id}/data-export: on the fan's request (audited). */
export function requestUserDataExport(userId: string) {
  return api.post(`${userPath(userId)}/data-export`, undefined, {
    schema: dataExportRequestedResponseSchema,
  });
}

/** The fan's ZIP as a blob, to hand over (the download is audited). */
export async function downloadUserDataExport(userId: string, exportId: string): Promise<Blob> {
  const body = await api.get(
    `${userPath(userId)}/data-export/${encodeURIComponent(exportId)}/download`,
    { responseType: "blob", timeoutMs: 300_000 },
  );
  if (!body || typeof body !== "object" || !("size" in body)) {
    throw new ApiError("The download could not be read", {
      status: 200,
      body,
      kind: "invalid-response",
    });
  }
  return body as Blob;
}

/** DELETE /api/admin/users/{id}: the fan's account, on their request (audited). */
export function deleteUserAccount(userId: string) {
  return api.delete(userPath(userId), {
    body: { confirmation: "DELETE" },
    schema: messageResponseSchema,
  });
}
