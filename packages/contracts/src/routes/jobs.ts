import {
  adminJobIdParamsSchema,
  adminJobRetryResponseSchema,
  adminJobsQuerySchema,
  adminJobsResponseSchema,
} from "../jobs";
import { defineRoute } from "./define";

const tags = ["admin"];

/** The admin's Jobs panel (apps/server/src/modules/jobs, issue 28). */
export const jobsRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/api/admin/jobs",
    access: "admin",
    tags,
    summary: "Background jobs, newest first: queued, running, failed (with the error); paged",
    query: adminJobsQuerySchema,
    response: adminJobsResponseSchema,
    errors: [400, 401, 403],
  }),
  retry: defineRoute({
    method: "POST",
    path: "/api/admin/jobs/:id/retry",
    access: "admin",
    tags,
    summary: "Queues a failed job again",
    params: adminJobIdParamsSchema,
    response: adminJobRetryResponseSchema,
    errors: [400, 401, 403, 404, 409],
  }),
} as const;
