import { userDashboardMetricsResponseSchema } from "../dashboards";
import { defineRoute } from "./define";

/** The fan's overview figures (apps/server/src/modules/dashboards, userDashboardRoutes). */
export const fanDashboardRoutes = {
  metrics: defineRoute({
    method: "GET",
    path: "/api/users/dashboard-metrics",
    access: "fan",
    tags: ["users"],
    summary: "The signed-in user's overview: credits, calls, messages, credit use",
    response: userDashboardMetricsResponseSchema,
    errors: [400, 401, 403],
  }),
} as const;
