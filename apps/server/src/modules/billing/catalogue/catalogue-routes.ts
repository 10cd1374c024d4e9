import {
  BILLING_MESSAGES,
  billingMessageResponseSchema,
  creditPackageCreateSchema,
  creditPackageResponseSchema,
  creditPackagesResponseSchema,
  creditPackageUpdateSchema,
  packageIdParamsSchema,
  planIdParamsSchema,
  subscriptionAnalyticsResponseSchema,
  subscriptionPlanCreateSchema,
  subscriptionPlanResponseSchema,
  subscriptionPlansResponseSchema,
  subscriptionPlanUpdateSchema,
  syncStripeResponseSchema,
} from "@twinline/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { bearerSecurity, errorResponses } from "../../../plugins/openapi.ts";
import { auditNote } from "../../audit/plugin.ts";
import type { SubscriptionsService } from "../subscriptions/subscriptions-service.ts";
import type { CatalogueService } from "./catalogue-service.ts";

const errors = errorResponses(400, 401, 403, 404, 502);
const security = bearerSecurity;
const packageTags = ["credit packages"];
const planTags = ["subscription plans"];

export interface CatalogueRoutesOptions {
  catalogue: CatalogueService;
  subscriptions: SubscriptionsService;
}

/**
 * The open catalogue: GET /api/credit-packages (active packages; an admin's token sees every
 * package, docs/decisions/0016) and GET /api/subscriptions/active-plans.
 */
export const publicCatalogueRoutes: FastifyPluginAsyncZod<CatalogueRoutesOptions> = async (
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

  app.get(
    "/api/credit-packages",
    {
      schema: {
        tags: packageTags,
        summary:
          "Credit packages by credits ascending: the active ones; with an admin token, all of them",
        response: { 200: creditPackagesResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const list = await catalogue.listPackages(await isAdmin(request, reply));
      return { success: true as const, data: list, packages: list };
    },
  );

  app.get(
    "/api/subscriptions/active-plans",
    {
      schema: {
        tags: planTags,
        summary: "The plans a user can subscribe to, by price",
        response: { 200: subscriptionPlansResponseSchema, ...errors },
      },
    },
    async () => ({ success: true as const, data: await catalogue.listPlans(true) }),
  );
};

/** Package and plan management: registered in the billing module's admin-guarded scope. */
export const adminCatalogueRoutes: FastifyPluginAsyncZod<CatalogueRoutesOptions> = async (
  app,
  { catalogue, subscriptions },
) => {
  // The audit log's `before` of an update, toggle or delete: the row as it was.
  app.addHook("preHandler", async (request) => {
    const id = (request.params as { id?: unknown } | undefined)?.id;
    if (typeof id !== "string" || request.method === "GET" || request.method === "POST") return;
    const packages = request.routeOptions.url?.startsWith("/api/credit-packages") ?? false;
    const before = packages
      ? await catalogue.findPackageAnyState(id)
      : await catalogue.findPlanAnyState(id);
    if (before) auditNote(request, { before });
  });

  app.post(
    "/api/credit-packages",
    {
      schema: {
        tags: packageTags,
        security,
        summary: "Creates a credit package (and its Stripe product and price when Stripe is on)",
        body: creditPackageCreateSchema,
        response: { 201: creditPackageResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const data = await catalogue.createPackage(request.body);
      return reply
        .code(201)
        .send({ success: true as const, message: BILLING_MESSAGES.packageCreated, data });
    },
  );

  app.put(
    "/api/credit-packages/:id",
    {
      schema: {
        tags: packageTags,
        security,
        summary: "Updates a package; a new price or currency makes a new Stripe Price",
        params: packageIdParamsSchema,
        body: creditPackageUpdateSchema,
        response: { 200: creditPackageResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: BILLING_MESSAGES.packageUpdated,
      data: await catalogue.updatePackage(request.params.id, request.body),
    }),
  );

  app.patch(
    "/api/credit-packages/:id/toggle-status",
    {
      schema: {
        tags: packageTags,
        security,
        summary: "Activates or deactivates a package",
        params: packageIdParamsSchema,
        response: { 200: creditPackageResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await catalogue.togglePackage(request.params.id)),
    }),
  );

  app.delete(
    "/api/credit-packages/:id",
    {
      schema: {
        tags: packageTags,
        security,
        summary: "Deletes a package (its Stripe product is deactivated; purchases are kept)",
        params: packageIdParamsSchema,
        response: { 200: billingMessageResponseSchema, ...errors },
      },
    },
    async (request) => {
      await catalogue.deletePackage(request.params.id);
      return { success: true as const, message: BILLING_MESSAGES.packageDeleted };
    },
  );

  app.post(
    "/api/credit-packages/sync-stripe",
    {
      schema: {
        tags: packageTags,
        security,
        summary: "Reconciles packages with Stripe both ways",
        response: { 200: syncStripeResponseSchema, ...errors },
      },
    },
    async () => catalogue.syncPackages(),
  );

  app.get(
    "/api/subscriptions",
    {
      schema: {
        tags: planTags,
        security,
        summary: "Every plan (active and inactive) with its subscriber count",
        response: { 200: subscriptionPlansResponseSchema, ...errors },
      },
    },
    async () => ({ success: true as const, data: await catalogue.listPlans(false) }),
  );

  app.post(
    "/api/subscriptions",
    {
      schema: {
        tags: planTags,
        security,
        summary: "Creates a plan (and its Stripe product and recurring price when Stripe is on)",
        body: subscriptionPlanCreateSchema,
        response: { 201: subscriptionPlanResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const data = await catalogue.createPlan(request.body);
      return reply
        .code(201)
        .send({ success: true as const, message: BILLING_MESSAGES.planCreated, data });
    },
  );

  app.put(
    "/api/subscriptions/:id",
    {
      schema: {
        tags: planTags,
        security,
        summary:
          "Updates a plan; interval and count are fixed; a new price is a new Stripe Price " +
          "(subscribers stay on theirs)",
        params: planIdParamsSchema,
        body: subscriptionPlanUpdateSchema,
        response: { 200: subscriptionPlanResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: BILLING_MESSAGES.planUpdated,
      data: await catalogue.updatePlan(request.params.id, request.body),
    }),
  );

  app.patch(
    "/api/subscriptions/:id/toggle-status",
    {
      schema: {
        tags: planTags,
        security,
        summary: "Activates or deactivates a plan",
        params: planIdParamsSchema,
        response: { 200: subscriptionPlanResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await catalogue.togglePlan(request.params.id)),
    }),
  );

  app.delete(
    "/api/subscriptions/:id",
    {
      schema: {
        tags: planTags,
        security,
        summary: "Deletes a plan (its Stripe product is deactivated; subscriptions go on)",
        params: planIdParamsSchema,
        response: { 200: billingMessageResponseSchema, ...errors },
      },
    },
    async (request) => {
      await catalogue.deletePlan(request.params.id);
      return { success: true as const, message: BILLING_MESSAGES.planDeleted };
    },
  );

  app.post(
    "/api/subscriptions/sync-stripe",
    {
      schema: {
        tags: planTags,
        security,
        summary: "Reconciles plans with Stripe both ways",
        response: { 200: syncStripeResponseSchema, ...errors },
      },
    },
    async () => catalogue.syncPlans(),
  );

  app.get(
    "/api/subscriptions/analytics",
    {
      schema: {
        tags: planTags,
        security,
        summary: "Subscriptions by state and revenue per plan",
        response: { 200: subscriptionAnalyticsResponseSchema, ...errors },
      },
    },
    async () => ({ success: true as const, data: await subscriptions.analytics() }),
  );
};
