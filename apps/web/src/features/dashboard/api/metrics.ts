import { queryOptions } from "@tanstack/react-query";
import { routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";

/** The dashboard data cache of the user-side spec (section 9): 1 minute. */
export const DASHBOARD_CACHE_MS = 60_000;

export const dashboardKeys = {
  metrics: ["dashboard", "metrics"] as const,
};

/** routes.dashboards.userMetrics. */
export async function fetchDashboardMetrics(signal?: AbortSignal) {
  const body = await callRoute(routes.dashboards.userMetrics, { signal });
  return body.data;
}

export const dashboardMetricsQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.metrics,
    queryFn: ({ signal }) => fetchDashboardMetrics(signal),
    staleTime: DASHBOARD_CACHE_MS,
  });

/** Whole days from `iso` to `now`. */
export function daysSince(iso: string, now: Date = new Date()): number {
  return Math.max(0, Math.floor((now.getTime() - new Date(iso).getTime()) / 86_400_000));
}
