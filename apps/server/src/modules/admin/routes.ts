import { routes } from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ADMIN_PREFIX, adminGuarded } from "../../plugins/admin-scope.ts";
import { currentTokenClaims, currentUser } from "../../plugins/auth.ts";
import { registerRoute } from "../../plugins/routes.ts";
import { noStore } from "../auth/routes.ts";
import type { AuthService } from "../auth/service.ts";
import { toAdmin } from "../users/mapper.ts";
import { ADMIN_MESSAGES, type AdminService } from "./service.ts";
import { adminUsersRoutes } from "./users-routes.ts";

// Kept here too for code that imports them from the admin module; they live in the plugin.
export { ADMIN_PREFIX, adminGuarded };

export interface AdminRoutesOptions {
  auth: AuthService;
  admin: AdminService;
}

/**
 * The admin's session and the users it manages, from the route table (routes.adminSession,
 * routes.adminUsers; decision 0086): the login is the only open route, every other one is
 * guarded by its definition's `access: "admin"` (no token or an ended one 401, a user's 403).
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

  await app.register(adminUsersRoutes, { admin: options.admin });
};
