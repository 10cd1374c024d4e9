import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { API_DOCS_PATH, errorEnvelopeSchema } from "@twinline/contracts";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/**
 * The OpenAPI document, generated from the zod schemas of the routes, at /api/docs/json, and
 * Swagger UI at /api/docs. Register it before any route: it collects them as they are added.
 */
export const openapiPlugin = fp<{ publicUrl: string }>(
  async (app: FastifyInstance, options) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: "3.1.0",
        info: {
          title: "Twinline API",
          description: "REST API of Twinline. Errors answer { success: false, message, error? }.",
          version: "1.0.0",
        },
        servers: [{ url: options.publicUrl }],
        components: {
          securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
        },
      },
      transform: jsonSchemaTransform,
    });
    // Swagger UI loads its scripts and styles as files from this prefix, which the site-wide
    // content security policy (script-src 'self') already allows.
    await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PATH });
  },
  { name: "openapi" },
);

/** The envelope of DESIGN.md under each status a route may answer with, for its response schema. */
export function errorResponses<const Status extends number>(...statuses: Status[]) {
  return Object.fromEntries(statuses.map((status) => [status, errorEnvelopeSchema])) as Record<
    Status,
    typeof errorEnvelopeSchema
  >;
}

/** The route needs the Bearer token of the OpenAPI document's bearerAuth scheme. */
export const bearerSecurity = [{ bearerAuth: [] }];
