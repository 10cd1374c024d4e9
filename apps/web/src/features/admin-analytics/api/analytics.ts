import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  crisisReferralsResponseSchema,
  type UserAnalyticsQuery,
  userAnalyticsResponseSchema,
} from "@twinline/contracts";
import { api } from "@/lib/api-client";

/** Page size of the analytics table and its refresh (admin-side spec, section 9). */
export const ANALYTICS_PAGE_SIZE = 10;
export const ANALYTICS_REFRESH_MS = 5 * 60_000;

export const analyticsKeys = {
  list: (params: UserAnalyticsQuery) => ["admin", "user-analytics", params] as const,
};

/** GET /api/admin/user-analytics: one page and the totals. */
export const userAnalyticsQuery = (params: UserAnalyticsQuery) =>
  queryOptions({
    queryKey: analyticsKeys.list(params),
    queryFn: ({ signal }) =>
      api.get("/api/admin/user-analytics", {
        signal,
        query: { ...params, search: params.search || undefined },
        schema: userAnalyticsResponseSchema,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: ANALYTICS_REFRESH_MS,
  });

/** The crisis referrals window shown and exported (days, UTC). */
export const CRISIS_REFERRAL_DAYS = 30;

/** GET /api/admin/analytics/crisis-referrals: referrals per UTC day (no personal data). */
export const crisisReferralsQuery = (days = CRISIS_REFERRAL_DAYS) =>
  queryOptions({
    queryKey: ["admin", "crisis-referrals", days] as const,
    queryFn: ({ signal }) =>
      api.get("/api/admin/analytics/crisis-referrals", {
        signal,
        query: { days },
        schema: crisisReferralsResponseSchema,
      }),
    refetchInterval: ANALYTICS_REFRESH_MS,
  });

/** GET /api/admin/analytics/crisis-referrals/export: the same days as CSV. */
export async function exportCrisisReferrals(days = CRISIS_REFERRAL_DAYS): Promise<Blob> {
  const answer = await api.get<unknown>("/api/admin/analytics/crisis-referrals/export", {
    query: { days },
    responseType: "blob",
  });
  if (answer && typeof answer === "object" && "arrayBuffer" in answer) return answer as Blob;
  return new Blob([typeof answer === "string" ? answer : ""], { type: "text/csv" });
}
