import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { type AuditTargetType, routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";

export const AUDIT_PAGE_SIZE = 20;

export interface AuditFilters {
  admin: string;
  action: string;
  targetType: AuditTargetType | "all";
  startDate: string;
  endDate: string;
}

export const EMPTY_AUDIT_FILTERS: AuditFilters = {
  admin: "",
  action: "",
  targetType: "all",
  startDate: "",
  endDate: "",
};

/** One page of the audit log: empty filters and "all" are left out of the query. */
export async function fetchAuditLog(filters: AuditFilters, page: number, signal?: AbortSignal) {
  const query: Record<string, string> = { page: String(page), limit: String(AUDIT_PAGE_SIZE) };
  for (const [key, value] of Object.entries(filters)) {
    if (value && value !== "all") query[key] = value.trim();
  }
  return callRoute(routes.audit.list, { signal, query });
}

export const auditLogQuery = (filters: AuditFilters, page: number) =>
  queryOptions({
    queryKey: ["admin", "audit-log", filters, page] as const,
    queryFn: ({ signal }) => fetchAuditLog(filters, page, signal),
    placeholderData: keepPreviousData,
  });
