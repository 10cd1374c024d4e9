import { queryOptions } from "@tanstack/react-query";
import { userDashboardMetricsResponseSchema } from "@twinline/contracts";
import { api } from "@/lib/api-client";

/** The dashboard data cache of the user-side spec (section 9): 1 minute. */
export const DASHBOARD_CACHE_MS = 60_000;

export const dashboardKeys = {
  metrics: ["dashboard", "metrics"] as const,
};

/** GET /api/users/dashboard-metrics. */
export async function fetchDashboardMetrics(signal?: AbortSignal) {
  const body = await api.get("/api/users/dashboard-metrics", {
    signal,
    schema: userDashboardMetricsResponseSchema,
  });
  return body.data;
}

export const dashboardMetricsQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.metrics,
    queryFn: ({ signal }) => fetchDashboardMetrics(signal),
    staleTime: DASHBOARD_CACHE_MS,
  });

/** "1h 5m", "3m 20s", "45s", "0s". */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}

export function formatDay(iso: string | null, empty = "Never"): string {
  if (!iso) return empty;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return empty;
  return date.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

/** Whole days from `iso` to `now`. */
export function daysSince(iso: string, now: Date = new Date()): number {
  return Math.max(0, Math.floor((now.getTime() - new Date(iso).getTime()) / 86_400_000));
}

export function formatDollars(amount: number): string {
  return amount.toLocaleString("en-US", { style: "currency", currency: "USD" });
}
