import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  adminDashboardFullResponseSchema,
  adminDashboardSeriesResponseSchema,
} from "@twinline/contracts";
import { api } from "@/lib/api-client";

/** The dashboard and the analytics refresh every 5 minutes (admin-side spec, section 9). */
export const ADMIN_REFRESH_MS = 5 * 60_000;

export type SeriesDays = 30 | 90;

export const adminDashboardKeys = {
  // Not the users screen's key: that one caches only the growth figures of the same answer.
  metrics: ["admin", "dashboard", "figures"] as const,
  series: (days: SeriesDays) => ["admin", "dashboard", "series", days] as const,
};

/** GET /api/admin/dashboard/metrics. */
export const adminMetricsQuery = () =>
  queryOptions({
    queryKey: adminDashboardKeys.metrics,
    queryFn: async ({ signal }) =>
      (
        await api.get("/api/admin/dashboard/metrics", {
          signal,
          schema: adminDashboardFullResponseSchema,
        })
      ).data,
    refetchInterval: ADMIN_REFRESH_MS,
  });

/** GET /api/admin/dashboard/series?days=30|90. */
export const adminSeriesQuery = (days: SeriesDays) =>
  queryOptions({
    queryKey: adminDashboardKeys.series(days),
    queryFn: async ({ signal }) =>
      (
        await api.get("/api/admin/dashboard/series", {
          signal,
          query: { days },
          schema: adminDashboardSeriesResponseSchema,
        })
      ).data,
    refetchInterval: ADMIN_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
