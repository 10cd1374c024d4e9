import { routes } from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { registerRoute } from "../../plugins/routes.ts";
import { checkHealth } from "./service.ts";

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const connection = app.database;
  registerRoute(app, routes.health.check, async (request, reply) => {
    const database = await checkHealth(connection.db, connection.kind);
    if (database.status !== "up") request.log.error("Health check: database down");
    const rateLimits = app.rateLimitHealth();
    const status = database.status === "up" && rateLimits.status === "up" ? "ok" : "degraded";
    reply.header("cache-control", "no-store");
    // Only a dead database takes the instance out of rotation: with Redis down every limit
    // still holds in this process, so the instance keeps serving and says so.
    return reply.code(database.status === "up" ? 200 : 503).send({ status, database, rateLimits });
  });
};
