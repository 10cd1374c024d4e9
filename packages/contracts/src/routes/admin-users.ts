import {
  adminUserDetailResponseSchema,
  adminUserIdParamsSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  userStatusActionSchema,
  userStatusResponseSchema,
} from "../admin";
import { dateOfBirthRequestSchema } from "../age";
import { defineRoute } from "./define";

const tags = ["admin"];
const errors = [400, 401, 403, 404, 429];

/** The admin's users list and a user's details (apps/server/src/modules/admin/users-routes.ts). */
export const adminUsersRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/api/admin/users",
    access: "admin",
    tags,
    summary: "Users, paged, sorted, searched by name or e-mail, filtered by status",
    query: adminUsersQuerySchema,
    response: adminUsersResponseSchema,
    errors,
  }),
  detail: defineRoute({
    method: "GET",
    path: "/api/admin/users/:userId",
    access: "admin",
    tags,
    summary: "One user's details",
    params: adminUserIdParamsSchema,
    response: adminUserDetailResponseSchema,
    errors,
  }),
  dateOfBirth: defineRoute({
    method: "PUT",
    path: "/api/admin/users/:userId/date-of-birth",
    access: "admin",
    tags,
    summary: "Corrects a user's date of birth (recorded in the audit log, old and new)",
    params: adminUserIdParamsSchema,
    body: dateOfBirthRequestSchema,
    response: userStatusResponseSchema,
    errors,
  }),
  status: defineRoute({
    method: "PUT",
    path: "/api/admin/users/:userId/status",
    access: "admin",
    tags,
    summary: "Activates, deactivates or suspends (deactivates) a user",
    params: adminUserIdParamsSchema,
    body: userStatusActionSchema,
    response: userStatusResponseSchema,
    errors,
  }),
} as const;
