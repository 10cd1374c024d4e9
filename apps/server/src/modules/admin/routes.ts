import {
  adminUserDetailResponseSchema,
  adminUserIdParamsSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  dateOfBirthRequestSchema,
  routes,
  userStatusActionSchema,
  userStatusResponseSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { pagination } from "../../lib/paging.ts";
import { ADMIN_PREFIX, adminGuarded } from "../../plugins/admin-scope.ts";
import { currentTokenClaims, currentUser } from "../../plugins/auth.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import { registerRoute } from "../../plugins/routes.ts";
import { auditNote } from "../audit/plugin.ts";
import { noStore } from "../auth/routes.ts";
import type { AuthService } from "../auth/service.ts";
import { toAdmin } from "../users/mapper.ts";
import { ADMIN_MESSAGES, type AdminService } from "./service.ts";

// Kept here too for code that imports them from the admin module; they live in the plugin.
export { ADMIN_PREFIX, adminGuarded };

const errors = errorResponses(400, 401, 403, 404, 429);
const tags = ["admin"];
const security = bearerSecurity;

export interface AdminRoutesOptions {
  auth: AuthService;
  admin: AdminService;
}

/**
 * The admin API. The sign-in and session routes come from the route table (routes.adminSession,
 * decision 0086): the login is the only open route, the others are guarded by `access: "admin"`.
 * Every other one is registered through adminGuarded (plugins/admin-scope.ts), whose one
 * onRequest hook (requireAdmin) covers them all: no token or an ended one 401, a user's token 403.
 */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, options) => {
  const { auth } = options;

  registerRoute(
    app,
    routes.adminSession.login,
    async (request, reply) => {
      // The login throttle: one per-address budget with the user login, per account, per device.
      const { user, token } = await app.loginThrottle.guard(
        request,
        reply,
        request.body.email,
        () => auth.adminLogin(request.body),
      );
      return { success: true as const, token, admin: toAdmin(user) };
    },
    { onRequest: noStore },
  );

  // The admin's session: guarded by `access: "admin"` (the route table), before the others.
  registerRoute(app, routes.adminSession.verifyToken, async (request) => ({
    success: true as const,
    valid: true,
    admin: toAdmin(currentUser(request)),
  }));

  registerRoute(app, routes.adminSession.profile, async (request) => ({
    success: true as const,
    data: toAdmin(currentUser(request)),
  }));

  registerRoute(
    app,
    routes.adminSession.changePassword,
    async (request) => ({
      success: true as const,
      message: ADMIN_MESSAGES.passwordChanged,
      token: await auth.changePassword(currentUser(request), request.body),
    }),
    { onRequest: noStore },
  );

  registerRoute(app, routes.adminSession.logout, async (request) => {
    await auth.logout(currentTokenClaims(request));
    return { success: true as const, message: ADMIN_MESSAGES.loggedOut };
  });

  await app.register(adminGuarded(guardedAdminRoutes), options);
};

const guardedAdminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, options) => {
  const { admin } = options;

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
    async (request) => {
      const { users, total } = await admin.listUsers(request.query);
      return {
        success: true as const,
        data: users,
        pagination: pagination(total, request.query),
      };
    },
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
    `${ADMIN_PREFIX}/users/:userId/date-of-birth`,
    {
      schema: {
        tags,
        security,
        summary: "Corrects a user's date of birth (recorded in the audit log, old and new)",
        params: adminUserIdParamsSchema,
        body: dateOfBirthRequestSchema,
        response: { 200: userStatusResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { dateOfBirth } = request.body;
      const { before, user } = await admin.correctDateOfBirth(request.params.userId, dateOfBirth);
      auditNote(request, { before: { dateOfBirth: before }, after: { dateOfBirth } });
      return { success: true as const, message: ADMIN_MESSAGES.dateOfBirthCorrected, data: user };
    },
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
    async (request) => {
      const { action } = request.body;
      const before = await admin.getUser(request.params.userId);
      auditNote(request, { before: { isActive: before.isActive, action } });
      return {
        success: true as const,
        message: action === "activate" ? ADMIN_MESSAGES.activated : ADMIN_MESSAGES.deactivated,
        data: await admin.setStatus(currentUser(request), request.params.userId, action),
      };
    },
  );
};
