import {
  adminDashboardFullResponseSchema,
  adminDashboardSeriesQuerySchema,
  adminDashboardSeriesResponseSchema,
  routes,
  userAnalyticsQuerySchema,
  userAnalyticsResponseSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ADMIN_PREFIX } from "../../plugins/admin-scope.ts";
import { currentUser } from "../../plugins/auth.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import { registerRoute } from "../../plugins/routes.ts";
import type { DashboardsService } from "./service.ts";

const errors = errorResponses(400, 401, 403);
const security = bearerSecurity;

export interface DashboardsRoutesOptions {
  dashboards: DashboardsService;
}

/** The user's overview figures (routes.fanDashboard: requireUser from access). */
export const userDashboardRoutes: FastifyPluginAsyncZod<DashboardsRoutesOptions> = async (
  app,
  { dashboards },
) => {
  registerRoute(app, routes.fanDashboard.metrics, async (request) => ({
    success: true as const,
    data: await dashboards.userMetrics(currentUser(request)),
  }));
};

/** The admin's dashboard and analytics; registered through adminGuarded (requireAdmin). */
export const adminDashboardRoutes: FastifyPluginAsyncZod<DashboardsRoutesOptions> = async (
  app,
  { dashboards },
) => {
  const tags = ["admin"];

  app.get(
    `${ADMIN_PREFIX}/dashboard/metrics`,
    {
      schema: {
        tags,
        security,
        summary: "Dashboard figures: users, revenue, paid users, call conversion (UTC periods)",
        response: { 200: adminDashboardFullResponseSchema, ...errors },
      },
    },
    async () => ({ success: true as const, data: await dashboards.adminMetrics() }),
  );

  app.get(
    `${ADMIN_PREFIX}/dashboard/series`,
    {
      schema: {
        tags,
        security,
        summary: "Sign-ups, revenue and call minutes per UTC day over the last 30 or 90 days",
        querystring: adminDashboardSeriesQuerySchema,
        response: { 200: adminDashboardSeriesResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await dashboards.adminSeries(request.query.days),
    }),
  );

  app.get(
    `${ADMIN_PREFIX}/user-analytics`,
    {
      schema: {
        tags,
        security,
        summary: "Users who chatted or called: interaction time, credits used, last interaction",
        querystring: userAnalyticsQuerySchema,
        response: { 200: userAnalyticsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await dashboards.userAnalytics(request.query)),
    }),
  );
};
