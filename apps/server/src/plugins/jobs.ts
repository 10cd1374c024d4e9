import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Clock } from "../lib/clock.ts";
import { createJobQueue, type JobQueue } from "../lib/jobs/job-queue.ts";
import { pgBossDatabase } from "../lib/jobs/pg-boss-database.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Durable background work (docs/decisions/0072): `app.jobs.define(name, handler, options)`. */
    jobs: JobQueue;
  }
}

export interface JobsPluginOptions {
  /** The clock of scheduled jobs (the billing clock; tests pass a manual one). */
  clock: Clock;
  /** Poll on-demand queues (default true); false: a test runs them with `jobs.runDue`. */
  workers?: boolean;
}

/**
 * The job queue on the app's own database. Modules define their jobs while they register; the
 * queue starts when the app is ready (every job defined by then) and stops when it closes,
 * before the database does (the database's onClose was registered first, so it runs last).
 */
export const jobsPlugin = fp<JobsPluginOptions>(
  async (app: FastifyInstance, options) => {
    const jobs = createJobQueue({
      db: pgBossDatabase(app.database, (error) =>
        app.log.error({ err: error }, "A job's completion was not recorded; it runs again"),
      ),
      clock: options.clock,
      log: app.log,
      ...(options.workers === false ? { workers: false } : {}),
      onFailure: (queue) => app.observability.metrics.jobFailed(queue),
    });
    app.decorate<JobQueue>("jobs", jobs);
    app.observability.metrics.jobQueues(async () =>
      Object.fromEntries((await jobs.board.summary()).map((queue) => [queue.queue, queue.queued])),
    );
    app.addHook("onReady", async () => jobs.start());
    app.addHook("onClose", async () => jobs.stop());
  },
  { name: "jobs" },
);
