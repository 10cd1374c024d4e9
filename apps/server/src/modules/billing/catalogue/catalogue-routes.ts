import { BILLING_MESSAGES, routes } from "@twinline/contracts";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { registerRoute } from "../../../plugins/routes.ts";
import { auditNote } from "../../audit/plugin.ts";
import type { SubscriptionsService } from "../subscriptions/subscriptions-service.ts";
import type { CatalogueService } from "./catalogue-service.ts";

export interface CatalogueRoutesOptions {
  catalogue: CatalogueService;
  subscriptions: SubscriptionsService;
}

/**
 * The open catalogue: GET /api/credit-packages (active packages; an admin's token sees every
 * package, docs/decisions/0016) and GET /api/subscriptions/active-plans.
 */
export const publicCatalogueRoutes: FastifyPluginAsync<CatalogueRoutesOptions> = async (
  app,
  { catalogue },
) => {
  /** An admin's valid token: every package. Anything else (none, a user's, a stale one): active. */
  const isAdmin = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.headers.authorization) return false;
    try {
      await app.requireAdmin(request, reply);
      return true;
    } catch {
      return false;
    }
  };

  registerRoute(app, routes.billing.packages, async (request, reply) => {
    const list = await catalogue.listPackages(await isAdmin(request, reply));
    return { success: true as const, data: list, packages: list };
  });

  registerRoute(app, routes.billing.activePlans, async () => ({
    success: true as const,
    data: await catalogue.listPlans(true),
  }));
};

/** Package and plan management, guarded for admins by their definitions (routes.adminBilling). */
export const adminCatalogueRoutes: FastifyPluginAsync<CatalogueRoutesOptions> = async (
  app,
  { catalogue, subscriptions },
) => {
  // The audit log's `before` of an update, toggle or delete: the row as it was.
  app.addHook("preHandler", async (request) => {
    const id = (request.params as { id?: unknown } | undefined)?.id;
    if (typeof id !== "string" || request.method === "GET" || request.method === "POST") return;
    const packages = request.routeOptions.url?.startsWith(routes.billing.packages.path) ?? false;
    const before = packages
      ? await catalogue.findPackageAnyState(id)
      : await catalogue.findPlanAnyState(id);
    if (before) auditNote(request, { before });
  });

  registerRoute(app, routes.adminBilling.createPackage, async (request, reply) => {
    const data = await catalogue.createPackage(request.body);
    return reply
      .code(201)
      .send({ success: true as const, message: BILLING_MESSAGES.packageCreated, data });
  });

  registerRoute(app, routes.adminBilling.updatePackage, async (request) => ({
    success: true as const,
    message: BILLING_MESSAGES.packageUpdated,
    data: await catalogue.updatePackage(request.params.id, request.body),
  }));

  registerRoute(app, routes.adminBilling.togglePackage, async (request) => ({
    success: true as const,
    ...(await catalogue.togglePackage(request.params.id)),
  }));

  registerRoute(app, routes.adminBilling.deletePackage, async (request) => {
    await catalogue.deletePackage(request.params.id);
    return { success: true as const, message: BILLING_MESSAGES.packageDeleted };
  });

  registerRoute(app, routes.adminBilling.syncPackages, async () => catalogue.syncPackages());

  registerRoute(app, routes.adminBilling.plans, async () => ({
    success: true as const,
    data: await catalogue.listPlans(false),
  }));

  registerRoute(app, routes.adminBilling.createPlan, async (request, reply) => {
    const data = await catalogue.createPlan(request.body);
    return reply
      .code(201)
      .send({ success: true as const, message: BILLING_MESSAGES.planCreated, data });
  });

  registerRoute(app, routes.adminBilling.updatePlan, async (request) => ({
    success: true as const,
    message: BILLING_MESSAGES.planUpdated,
    data: await catalogue.updatePlan(request.params.id, request.body),
  }));

  registerRoute(app, routes.adminBilling.togglePlan, async (request) => ({
    success: true as const,
    ...(await catalogue.togglePlan(request.params.id)),
  }));

  registerRoute(app, routes.adminBilling.deletePlan, async (request) => {
    await catalogue.deletePlan(request.params.id);
    return { success: true as const, message: BILLING_MESSAGES.planDeleted };
  });

  registerRoute(app, routes.adminBilling.syncPlans, async () => catalogue.syncPlans());

  registerRoute(app, routes.adminBilling.planAnalytics, async () => ({
    success: true as const,
    data: await subscriptions.analytics(),
  }));
};
