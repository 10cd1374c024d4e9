import { routes } from "@twinline/contracts";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { registerRoute } from "../../plugins/routes.ts";
import type { SettingsService, SettingsSnapshot } from "./service.ts";

function send(request: FastifyRequest, reply: FastifyReply, snapshot: SettingsSnapshot) {
  // Browsers revalidate each time (no-cache) and get a 304 while nothing changed.
  reply.header("cache-control", "no-cache").header("etag", snapshot.etag);
  if (request.headers["if-none-match"] === snapshot.etag) {
    return reply.code(304).send();
  }
  // The JSON was serialised once when the settings were read; a string with a JSON content
  // type goes out as is, without a serialiser pass per request.
  return reply.header("content-type", "application/json; charset=utf-8").send(snapshot.json);
}

/** GET /api/settings (routes.settings.public): sends a pre-serialised string itself. */
export const settingsRoutes: FastifyPluginAsync<{ settings: SettingsService }> = async (
  app,
  { settings },
) => {
  registerRoute(app, routes.settings.public, (request, reply) => {
    // The hot path answers synchronously from memory; only a cold cache waits for the database.
    const cached = settings.cachedSnapshot();
    if (cached) {
      send(request, reply, cached);
      return;
    }
    return settings.snapshot().then((snapshot) => send(request, reply, snapshot));
  });
};
