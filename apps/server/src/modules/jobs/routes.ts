import {
  adminJobIdParamsSchema,
  adminJobRetryResponseSchema,
  adminJobsQuerySchema,
  adminJobsResponseSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { JobNotRetryableError, type JobQueue } from "../../lib/jobs/job-queue.ts";
import { ADMIN_PREFIX } from "../../plugins/admin-scope.ts";
import { HttpError } from "../../plugins/errors.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";

export const JOB_MESSAGES = {
  notFound: "Job not found",
  notFailed: "Only a failed job can be retried",
  retried: "Job queued for a retry",
} as const;

/** The admin's Jobs panel (issue 28); registered through adminGuarded (plugin.ts). */
export const jobsAdminRoutes: FastifyPluginAsyncZod<{ jobs: JobQueue }> = async (app, { jobs }) => {
  app.get(
    `${ADMIN_PREFIX}/jobs`,
    {
      schema: {
        tags: ["admin"],
        security: bearerSecurity,
        summary: "Background jobs, newest first: queued, running, failed (with the error); paged",
        querystring: adminJobsQuerySchema,
        response: { 200: adminJobsResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ success: true as const, ...(await jobs.board.list(request.query)) }),
  );

  app.post(
    `${ADMIN_PREFIX}/jobs/:id/retry`,
    {
      schema: {
        tags: ["admin"],
        security: bearerSecurity,
        summary: "Queues a failed job again",
        params: adminJobIdParamsSchema,
        response: { 200: adminJobRetryResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      try {
        const job = await jobs.retry(request.params.id);
        if (!job) throw new HttpError(404, JOB_MESSAGES.notFound);
        return { success: true as const, message: JOB_MESSAGES.retried, data: job };
      } catch (error) {
        if (error instanceof JobNotRetryableError) throw new HttpError(409, JOB_MESSAGES.notFailed);
        throw error;
      }
    },
  );
};
