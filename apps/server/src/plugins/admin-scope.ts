import { ADMIN_API_PREFIX } from "@twinline/contracts";
import type { FastifyPluginOptions } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** Where the admin API lives. */
export const ADMIN_PREFIX = ADMIN_API_PREFIX;

/**
 * THE admin guard (docs/decisions/0029-one-way-per-thing.md): wraps a plugin of admin-only
 * routes so that every route it registers, now and later, sits in one encapsulated scope whose
 * one onRequest hook is `requireAdmin` (plugins/auth.ts): no or an ended token 401, a user's
 * token 403, before body validation runs. Every admin-only route of every module is registered
 * through it (the admin module, chat logs, the operator's settings and AI training...):
 *
 *   await app.register(adminGuarded(myAdminRoutes), options);
 *
 * Routes migrated to the route table (decision 0086: the admin's sign-in and session among
 * them) are guarded by their definition's `access: "admin"` instead (registerRoute,
 * plugins/routes.ts); this wrapper goes with the last module not migrated.
 */
export function adminGuarded<T extends FastifyPluginOptions>(
  routes: FastifyPluginAsyncZod<T>,
): FastifyPluginAsyncZod<T> {
  return async (app, options) => {
    app.addHook("onRequest", app.requireAdmin);
    await app.register(routes, options);
  };
}
