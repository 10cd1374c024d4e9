import { routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { pagination } from "../../lib/paging.ts";
import { currentUser } from "../../plugins/auth.ts";
import { registerRoute } from "../../plugins/routes.ts";
import { auditNote } from "../audit/plugin.ts";
import { ADMIN_MESSAGES, type AdminService } from "./service.ts";

/**
 * The admin's users list and a user's details, status and date of birth (routes.adminUsers,
 * guarded by their definitions' access: admin). Registered by adminRoutes right after its
 * guarded scope, where these routes stood, so the OpenAPI document keeps its order.
 */
export const adminUsersRoutes: FastifyPluginAsync<{ admin: AdminService }> = async (
  app,
  { admin },
) => {
  registerRoute(app, routes.adminUsers.list, async (request) => {
    const { users, total } = await admin.listUsers(request.query);
    return { success: true as const, data: users, pagination: pagination(total, request.query) };
  });

  registerRoute(app, routes.adminUsers.detail, async (request) => ({
    success: true as const,
    data: await admin.getUser(request.params.userId),
  }));

  registerRoute(app, routes.adminUsers.dateOfBirth, async (request) => {
    const { dateOfBirth } = request.body;
    const { before, user } = await admin.correctDateOfBirth(request.params.userId, dateOfBirth);
    auditNote(request, { before: { dateOfBirth: before }, after: { dateOfBirth } });
    return { success: true as const, message: ADMIN_MESSAGES.dateOfBirthCorrected, data: user };
  });

  registerRoute(app, routes.adminUsers.status, async (request) => {
    const { action } = request.body;
    const before = await admin.getUser(request.params.userId);
    auditNote(request, { before: { isActive: before.isActive, action } });
    return {
      success: true as const,
      message: action === "activate" ? ADMIN_MESSAGES.activated : ADMIN_MESSAGES.deactivated,
      data: await admin.setStatus(currentUser(request), request.params.userId, action),
    };
  });
};
