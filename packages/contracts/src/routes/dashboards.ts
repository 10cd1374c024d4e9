import {
  adminDashboardFullResponseSchema,
  adminDashboardSeriesQuerySchema,
  adminDashboardSeriesResponseSchema,
  userAnalyticsQuerySchema,
  userAnalyticsResponseSchema,
  userDashboardMetricsResponseSchema,
} from "../dashboards";
import { defineRoute } from "./define";

const tags = ["admin"];
const errors = [400, 401, 403];

/**
 * The figures (apps/server/src/modules/dashboards): the user's overview, the admin dashboard and
 * its series, the user analytics.
 */
export const dashboardsRoutes = {
  userMetrics: defineRoute({
    method: "GET",
    path: "/api/users/dashboard-metrics",
    access: "fan",
    tags: ["users"],
    summary: "The signed-in user's overview: credits, calls, messages, credit use",
    response: userDashboardMetricsResponseSchema,
    errors,
  }),
  metrics: defineRoute({
    method: "GET",
    path: "/api/admin/dashboard/metrics",
    access: "admin",
    tags,
    summary: "Dashboard figures: users, revenue, paid users, call conversion (UTC periods)",
    response: adminDashboardFullResponseSchema,
    errors,
  }),
  series: defineRoute({
    method: "GET",
    path: "/api/admin/dashboard/series",
    access: "admin",
    tags,
    summary: "Sign-ups, revenue and call minutes per UTC day over the last 30 or 90 days",
    query: adminDashboardSeriesQuerySchema,
    response: adminDashboardSeriesResponseSchema,
    errors,
  }),
  userAnalytics: defineRoute({
    method: "GET",
    path: "/api/admin/user-analytics",
    access: "admin",
    tags,
    summary: "Users who chatted or called: interaction time, credits used, last interaction",
    query: userAnalyticsQuerySchema,
    response: userAnalyticsResponseSchema,
    errors,
  }),
} as const;
