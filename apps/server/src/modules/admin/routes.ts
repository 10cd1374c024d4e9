import {
  adminChangePasswordRequestSchema,
  adminLoginRequestSchema,
  adminLoginResponseSchema,
  adminPasswordChangedResponseSchema,
  adminProfileResponseSchema,
  messageResponseSchema,
  verifyTokenResponseSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ADMIN_PREFIX, adminGuarded } from "../../plugins/admin-scope.ts";
import { currentTokenClaims, currentUser } from "../../plugins/auth.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import { noStore } from "../auth/routes.ts";
import type { AuthService } from "../auth/service.ts";
import { toAdmin } from "../users/mapper.ts";
import { ADMIN_MESSAGES, type AdminService } from "./service.ts";
import { adminUsersRoutes } from "./users-routes.ts";

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
 * The admin API. POST /api/admin/login is the only open route; every other one is registered
 * through adminGuarded (plugins/admin-scope.ts), whose one onRequest hook (requireAdmin) covers
 * them all: no token or an ended one 401, a user's token 403.
 */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, options) => {
  const { auth } = options;

  app.post(
    `${ADMIN_PREFIX}/login`,
    {
      onRequest: noStore,
      schema: {
        tags,
        summary: "Signs an admin in",
        body: adminLoginRequestSchema,
        response: { 200: adminLoginResponseSchema, ...errors },
      },
    },
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
  );

  await app.register(adminGuarded(guardedAdminRoutes), options);
  await app.register(adminUsersRoutes, { admin: options.admin });
};

const guardedAdminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, options) => {
  const { auth } = options;

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
      onRequest: noStore,
      schema: {
        tags,
        security,
        summary: "Changes the admin's password; earlier tokens end and a fresh one is answered",
        body: adminChangePasswordRequestSchema,
        response: { 200: adminPasswordChangedResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: ADMIN_MESSAGES.passwordChanged,
      token: await auth.changePassword(currentUser(request), request.body),
    }),
  );

  app.post(
    `${ADMIN_PREFIX}/logout`,
    {
      schema: {
        tags,
        security,
        summary: "Ends this admin session's token on the server (every instance), until its expiry",
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      await auth.logout(currentTokenClaims(request));
      return { success: true as const, message: ADMIN_MESSAGES.loggedOut };
    },
  );
};
