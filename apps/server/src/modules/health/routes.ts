import { healthResponseSchema } from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { checkHealth } from "./service.ts";

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const connection = app.database;
  app.get(
    "/api/health",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness and database state",
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (request, reply) => {
      const health = await checkHealth(connection.db, connection.kind);
      if (health.status !== "ok") request.log.error("Health check: database down");
      reply.header("cache-control", "no-store");
      return reply.code(health.status === "ok" ? 200 : 503).send(health);
    },
  );
};
