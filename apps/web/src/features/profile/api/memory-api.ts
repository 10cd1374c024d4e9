import { queryOptions } from "@tanstack/react-query";
import { routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";

/** routes.memory.view: the summary, the remembered facts and the switch. */
export const memoryQuery = () =>
  queryOptions({
    queryKey: ["memory"] as const,
    queryFn: async ({ signal }) => (await callRoute(routes.memory.view, { signal })).data,
  });

/** routes.memory.setEnabled {enabled}: effective at the next reply. */
export function setMemoryEnabled(enabled: boolean) {
  return callRoute(routes.memory.setEnabled, { body: { enabled } });
}

export function deleteSummary() {
  return callRoute(routes.memory.deleteSummary);
}

/** The fact is forgotten: it never reaches a prompt again. */
export function forgetFact(id: string) {
  return callRoute(routes.memory.forgetFact, { params: { id } });
}
