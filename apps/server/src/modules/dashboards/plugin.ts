import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { ChatService } from "../chat/service.ts";
import { createDashboardsRepository } from "./repository.ts";
import { adminDashboardRoutes, userDashboardRoutes } from "./routes.ts";
import { createDashboardsService } from "./service.ts";

/** The other modules' services the figures use, passed by app.ts (docs/decisions/0097). */
export interface DashboardsModuleDeps {
  /** Each fan's message counts. */
  chat: ChatService;
}

export interface DashboardsModuleOptions extends DashboardsModuleDeps {
  /** The clock of the figures' periods (tests fix it). */
  now?: () => Date;
  /** The billing clock, for revenue (payments are dated on it). */
  billingNow?: () => Date;
}

/**
 * The figures: the user's overview (/api/users/dashboard-metrics), the admin dashboard and its
 * series, and the user analytics. Needs accounts registered before it.
 */
export const dashboardsModule = fp<DashboardsModuleOptions>(
  async (app: FastifyInstance, options) => {
    const dashboards = createDashboardsService({
      repository: createDashboardsRepository(app.database.db),
      chat: options.chat,
      db: app.database.db,
      ...(options.now ? { now: options.now } : {}),
      ...(options.billingNow ? { billingNow: options.billingNow } : {}),
    });
    await app.register(userDashboardRoutes, { dashboards });
    await app.register(adminDashboardRoutes, { dashboards });
  },
  { name: "dashboards", dependencies: ["accounts"] },
);
