import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { routes, type UserAnalyticsQuery } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";

/** Page size of the analytics table and its refresh (admin-side spec, section 9). */
export const ANALYTICS_PAGE_SIZE = 10;
export const ANALYTICS_REFRESH_MS = 5 * 60_000;

export const analyticsKeys = {
  list: (params: UserAnalyticsQuery) => ["admin", "user-analytics", params] as const,
};

/** The user analytics: one page and the totals. */
export const userAnalyticsQuery = (params: UserAnalyticsQuery) =>
  queryOptions({
    queryKey: analyticsKeys.list(params),
    queryFn: ({ signal }) =>
      callRoute(routes.dashboards.userAnalytics, {
        signal,
        query: { ...params, search: params.search || undefined },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: ANALYTICS_REFRESH_MS,
  });

/** The crisis referrals window shown and exported (days, UTC). */
export const CRISIS_REFERRAL_DAYS = 30;

/** The crisis referrals per UTC day (no personal data). */
export const crisisReferralsQuery = (days = CRISIS_REFERRAL_DAYS) =>
  queryOptions({
    queryKey: ["admin", "crisis-referrals", days] as const,
    queryFn: ({ signal }) =>
      callRoute(routes.chatLogs.crisisReferrals, { signal, query: { days } }),
    refetchInterval: ANALYTICS_REFRESH_MS,
  });

/** The same days as CSV (a file route: the answer's bytes, checked by its schema). */
export async function exportCrisisReferrals(days = CRISIS_REFERRAL_DAYS): Promise<Blob> {
  const body = await callRoute(routes.chatLogs.crisisReferralsExport, {
    query: { days },
    responseType: "blob",
  });
  return body as unknown as Blob;
}
