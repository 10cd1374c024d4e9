import type { RouteDefinition, RouteReply } from "@twinline/contracts";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteOptions,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { bearerSecurity, errorResponses } from "./openapi.ts";

/**
 * Registers a route of the table (packages/contracts/src/routes, decision 0086): its method and
 * path, the validation of params, query and body, the response schemas and OpenAPI entry, and
 * the auth guard all come from the definition (`access`: public, fan = requireUser, admin =
 * requireAdmin); the module writes only the handler.
 *
 *   registerRoute(app, routes.settings.admin, async () => ({ success: true, data: ... }));
 */

type Out<S> = S extends z.ZodType ? z.output<S> : unknown;

/** The request of a route: params, query and body typed by the definition's schemas. */
export type RouteRequest<R extends RouteDefinition> = FastifyRequest<{
  Params: Out<R["params"]>;
  Querystring: Out<R["query"]>;
  Body: Out<R["body"]>;
}>;

/**
 * A handler: resolves to the success answer (as the response schema takes it; a route whose
 * definition names another `status` sets it with reply.code), or sends the reply
 * itself (another status, a stream, a pre-serialised body) and returns the reply or nothing.
 */
export type RouteHandler<R extends RouteDefinition> = (
  request: RouteRequest<R>,
  reply: FastifyReply,
) => RouteReply<R> | FastifyReply | undefined | Promise<RouteReply<R> | FastifyReply | undefined>;

/** What a module may add besides the handler: rate limits, CSRF exemption, hooks before the guard. */
export interface RouteExtras {
  config?: RouteOptions["config"];
  /** Runs before the guard (cache headers and the like). */
  onRequest?: onRequestHookHandler | onRequestHookHandler[];
  preHandler?: RouteOptions["preHandler"];
  bodyLimit?: number;
}

/** The fastify `schema` of a definition: validation and the OpenAPI entry. */
export function routeSchema(route: RouteDefinition) {
  const response = {
    // A `file` route's bytes (audio, a ZIP, a page) have no schema in the document; one with
    // no error statuses either has no `response` at all (the document's "Default Response").
    ...(route.kind === "file" ? {} : { [route.status ?? 200]: route.response }),
    ...route.otherResponses,
    ...errorResponses(...(route.errors ?? [])),
  };
  return {
    tags: [...route.tags],
    summary: route.summary,
    ...(route.hidden ? { hide: true } : {}),
    ...(route.access === "public" ? {} : { security: bearerSecurity }),
    ...(route.kind === "upload" ? { consumes: ["multipart/form-data"] } : {}),
    ...(route.params ? { params: route.params } : {}),
    ...(route.query ? { querystring: route.query } : {}),
    ...(route.body ? { body: route.body } : {}),
    ...(route.produces ? { produces: [...route.produces] } : {}),
    ...(Object.keys(response).length ? { response } : {}),
  };
}

/** The hook of a route's `access`, or none for a public route. */
export function guardOf(app: FastifyInstance, route: RouteDefinition) {
  if (route.access === "admin") return app.requireAdmin;
  if (route.access === "fan") return app.requireUser;
  return undefined;
}

export function registerRoute<R extends RouteDefinition>(
  app: FastifyInstance,
  route: R,
  handler: RouteHandler<R>,
  extras: RouteExtras = {},
): void {
  const guard = guardOf(app, route);
  const before = extras.onRequest === undefined ? [] : [extras.onRequest].flat();
  const onRequest = guard ? [...before, guard] : before;
  const options: RouteOptions = {
    method: route.method,
    url: route.path,
    schema: routeSchema(route),
    handler: handler as unknown as RouteOptions["handler"],
    ...(onRequest.length ? { onRequest } : {}),
    ...(extras.config ? { config: extras.config } : {}),
    ...(extras.preHandler ? { preHandler: extras.preHandler } : {}),
    ...(extras.bodyLimit ? { bodyLimit: extras.bodyLimit } : {}),
  };
  app.withTypeProvider<ZodTypeProvider>().route(options);
}
