import { queryOptions } from "@tanstack/react-query";
import { memoryChangedResponseSchema, memoryResponseSchema } from "@twinline/contracts";
import { api } from "@/lib/api-client";

/** GET /api/memory: the summary, the remembered facts and the switch. */
export const memoryQuery = () =>
  queryOptions({
    queryKey: ["memory"] as const,
    queryFn: async ({ signal }) =>
      (await api.get("/api/memory", { signal, schema: memoryResponseSchema })).data,
  });

/** PATCH /api/memory {enabled}: effective at the next reply. */
export function setMemoryEnabled(enabled: boolean) {
  return api.patch("/api/memory", { enabled }, { schema: memoryChangedResponseSchema });
}

export function deleteSummary() {
  return api.delete("/api/memory/summary", { schema: memoryChangedResponseSchema });
}

/** The fact is forgotten: it never reaches a prompt again. */
export function forgetFact(id: string) {
  return api.delete(`/api/memory/facts/${encodeURIComponent(id)}`, {
    schema: memoryChangedResponseSchema,
  });
}
