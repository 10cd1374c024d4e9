import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { jobsAdminRoutes } from "./routes.ts";

/** The admin's Jobs panel over the app's job queue (plugins/jobs.ts, docs/decisions/0072). */
export const jobsModule = fp(
  async (app: FastifyInstance) => {
    await app.register(jobsAdminRoutes, { jobs: app.jobs });
  },
  { name: "jobs-admin", dependencies: ["jobs", "accounts"] },
);
