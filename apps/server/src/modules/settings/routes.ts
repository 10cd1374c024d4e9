import { publicSettingsSchema } from "@twinline/contracts";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
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

// Not the zod type provider: this route answers a pre-serialised string, which the provider's
// typed reply would refuse. The zod schema still documents the answer in the OpenAPI document.
export const settingsRoutes: FastifyPluginAsync<{ settings: SettingsService }> = async (
  app,
  { settings },
) => {
  app.get(
    "/api/settings",
    {
      schema: {
        tags: ["settings"],
        summary: "The public site settings (never any provider key)",
        response: {
          200: publicSettingsSchema,
          304: z.null().describe("Not modified: the settings still match If-None-Match"),
        },
      },
    },
    (request, reply) => {
      // The hot path answers synchronously from memory; only a cold cache waits for the database.
      const cached = settings.cachedSnapshot();
      if (cached) {
        send(request, reply, cached);
        return;
      }
      return settings.snapshot().then((snapshot) => send(request, reply, snapshot));
    },
  );
};
