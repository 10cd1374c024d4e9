import { routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { JobNotRetryableError, type JobQueue } from "../../lib/jobs/job-queue.ts";
import { HttpError } from "../../plugins/errors.ts";
import { registerRoute } from "../../plugins/routes.ts";

export const JOB_MESSAGES = {
  notFound: "Job not found",
  notFailed: "Only a failed job can be retried",
  retried: "Job queued for a retry",
} as const;

/** The admin's Jobs panel (issue 28); guarded by the definitions' access: admin. */
export const jobsAdminRoutes: FastifyPluginAsync<{ jobs: JobQueue }> = async (app, { jobs }) => {
  registerRoute(app, routes.jobs.list, async (request) => ({
    success: true as const,
    ...(await jobs.board.list(request.query)),
  }));

  registerRoute(app, routes.jobs.retry, async (request) => {
    try {
      const job = await jobs.retry(request.params.id);
      if (!job) throw new HttpError(404, JOB_MESSAGES.notFound);
      return { success: true as const, message: JOB_MESSAGES.retried, data: job };
    } catch (error) {
      if (error instanceof JobNotRetryableError) throw new HttpError(409, JOB_MESSAGES.notFailed);
      throw error;
    }
  });
};
