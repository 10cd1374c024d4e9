import { auditLogQuerySchema, auditLogResponseSchema } from "../audit";
import { defineRoute } from "./define";

/** The admin's audit log (apps/server/src/modules/audit). */
export const auditRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/api/admin/audit-log",
    access: "admin",
    tags: ["admin"],
    summary: "Admin writes, newest first: filtered by admin, action, target and dates; paged",
    query: auditLogQuerySchema,
    response: auditLogResponseSchema,
    errors: [400, 401, 403],
  }),
} as const;
