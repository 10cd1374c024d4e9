import { routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { currentUser } from "../../plugins/auth.ts";
import { registerRoute } from "../../plugins/routes.ts";
import type { DashboardsService } from "./service.ts";

export interface DashboardsRoutesOptions {
  dashboards: DashboardsService;
}

/** The user's overview figures (routes.dashboards.userMetrics: requireUser). */
export const userDashboardRoutes: FastifyPluginAsync<DashboardsRoutesOptions> = async (
  app,
  { dashboards },
) => {
  registerRoute(app, routes.dashboards.userMetrics, async (request) => ({
    success: true as const,
    data: await dashboards.userMetrics(currentUser(request)),
  }));
};

/** The admin's dashboard and analytics (their definitions' access: admin, requireAdmin). */
export const adminDashboardRoutes: FastifyPluginAsync<DashboardsRoutesOptions> = async (
  app,
  { dashboards },
) => {
  registerRoute(app, routes.dashboards.metrics, async () => ({
    success: true as const,
    data: await dashboards.adminMetrics(),
  }));

  registerRoute(app, routes.dashboards.series, async (request) => ({
    success: true as const,
    data: await dashboards.adminSeries(request.query.days),
  }));

  registerRoute(app, routes.dashboards.userAnalytics, async (request) => ({
    success: true as const,
    ...(await dashboards.userAnalytics(request.query)),
  }));
};
