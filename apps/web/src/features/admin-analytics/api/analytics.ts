import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { type UserAnalyticsQuery, userAnalyticsResponseSchema } from "@twinline/contracts";
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
