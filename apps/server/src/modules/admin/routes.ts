import {
  adminChangePasswordRequestSchema,
  adminLoginRequestSchema,
  adminLoginResponseSchema,
  adminPasswordChangedResponseSchema,
  adminProfileResponseSchema,
  adminUserDetailResponseSchema,
  adminUserIdParamsSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  userStatusActionSchema,
  userStatusResponseSchema,
  verifyTokenResponseSchema,
} from "@twinline/contracts";
import type { FastifyPluginOptions } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import type { AuthService } from "../auth/service.ts";
import { toAdmin } from "../users/mapper.ts";
import { ADMIN_MESSAGES, type AdminService } from "./service.ts";

export const ADMIN_PREFIX = "/api/admin";

const errors = errorResponses(400, 401, 403, 404, 429);
const tags = ["admin"];
const security = bearerSecurity;

export interface AdminRoutesOptions {
  auth: AuthService;
  admin: AdminService;
}

/**
 * The admin API. POST /api/admin/login is the only open route; every other one is registered
 * in the guarded scope below, whose one onRequest hook (requireAdmin) covers the whole prefix:
 * no token or an ended one 401, a user's token 403.
 */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, options) => {
  const { auth } = options;

  app.post(
    `${ADMIN_PREFIX}/login`,
    {
      config: { rateLimit: app.authRateLimit },
      schema: {
        tags,
        summary: "Signs an admin in",
        body: adminLoginRequestSchema,
        response: { 200: adminLoginResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user, token } = await auth.adminLogin(request.body);
      return { success: true as const, token, admin: toAdmin(user) };
    },
  );

  await app.register(adminGuarded(guardedAdminRoutes), options);
};

/**
 * THE admin guard: wraps a plugin of /api/admin routes so that every route it registers is
 * behind requireAdmin (one onRequest hook on its scope). The admin routes of other modules
 * (chat logs...) register through it too.
 */
export function adminGuarded<T extends FastifyPluginOptions>(
  routes: FastifyPluginAsyncZod<T>,
): FastifyPluginAsyncZod<T> {
  return async (app, options) => {
    app.addHook("onRequest", app.requireAdmin);
    await app.register(routes, options);
  };
}

const guardedAdminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, options) => {
  const { auth, admin } = options;

  app.get(
    `${ADMIN_PREFIX}/verify-token`,
    {
      schema: {
        tags,
        security,
        summary: "Whether the admin token is valid (401 when not)",
        response: { 200: verifyTokenResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      valid: true,
      admin: toAdmin(currentUser(request)),
    }),
  );

  app.get(
    `${ADMIN_PREFIX}/profile`,
    {
      schema: {
        tags,
        security,
        summary: "The signed-in admin",
        response: { 200: adminProfileResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: toAdmin(currentUser(request)) }),
  );

  app.put(
    `${ADMIN_PREFIX}/change-password`,
    {
      schema: {
        tags,
        security,
        summary: "Changes the admin's password; earlier tokens end and a fresh one is answered",
        body: adminChangePasswordRequestSchema,
        response: { 200: adminPasswordChangedResponseSchema, ...errors },
      },
    },
    async (request) =>
      auth.changePassword(currentUser(request), request.body, ADMIN_MESSAGES.passwordChanged),
  );

  app.get(
    `${ADMIN_PREFIX}/users`,
    {
      schema: {
        tags,
        security,
        summary: "Users, paged, sorted, searched by name or e-mail, filtered by status",
        querystring: adminUsersQuerySchema,
        response: { 200: adminUsersResponseSchema, ...errors },
      },
    },
    async (request) => admin.listUsers(request.query),
  );

  app.get(
    `${ADMIN_PREFIX}/users/:userId`,
    {
      schema: {
        tags,
        security,
        summary: "One user's details",
        params: adminUserIdParamsSchema,
        response: { 200: adminUserDetailResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await admin.getUser(request.params.userId),
    }),
  );

  app.put(
    `${ADMIN_PREFIX}/users/:userId/status`,
    {
      schema: {
        tags,
        security,
        summary: "Activates, deactivates or suspends (deactivates) a user",
        params: adminUserIdParamsSchema,
        body: userStatusActionSchema,
        response: { 200: userStatusResponseSchema, ...errors },
      },
    },
    async (request) =>
      admin.setStatus(currentUser(request), request.params.userId, request.body.action),
  );
};
