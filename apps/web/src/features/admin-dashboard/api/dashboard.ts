import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";

/** The dashboard and the analytics refresh every 5 minutes (admin-side spec, section 9). */
export const ADMIN_REFRESH_MS = 5 * 60_000;

export type SeriesDays = 30 | 90;

export const adminDashboardKeys = {
  // Not the users screen's key: that one caches only the growth figures of the same answer.
  metrics: ["admin", "dashboard", "figures"] as const,
  series: (days: SeriesDays) => ["admin", "dashboard", "series", days] as const,
};

/** The dashboard's figures (routes.dashboards.metrics). */
export const adminMetricsQuery = () =>
  queryOptions({
    queryKey: adminDashboardKeys.metrics,
    queryFn: async ({ signal }) => (await callRoute(routes.dashboards.metrics, { signal })).data,
    refetchInterval: ADMIN_REFRESH_MS,
  });

/** The daily series over the last 30 or 90 days (routes.dashboards.series). */
export const adminSeriesQuery = (days: SeriesDays) =>
  queryOptions({
    queryKey: adminDashboardKeys.series(days),
    queryFn: async ({ signal }) =>
      (await callRoute(routes.dashboards.series, { signal, query: { days } })).data,
    refetchInterval: ADMIN_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
