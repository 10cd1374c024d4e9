import { existsSync } from "node:fs";
import { join, sep } from "node:path";
import fastifyStatic from "@fastify/static";
import { isKnownWebPath } from "@twinline/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

// Vite names every file under assets/ by its content hash: a new build means a new name.
const IMMUTABLE = "public, max-age=31536000, immutable";
// Everything else (index.html, favicon...) must be revalidated so a deploy shows at once.
const REVALIDATE = "no-cache";
/**
 * The chat bubble's script, loaded by other sites (decision 0085). Its name is fixed (the snippet
 * in their pages), so it cannot be immutable: cached an hour, a deploy reaches them within it.
 */
export const EMBED_SCRIPT_PATH = "/embed.js";
const EMBED_SCRIPT_CACHE = "public, max-age=3600";

const NOT_BUILT =
  "The web app is not built yet. Run `npm run build` (or `npm start`, which builds it), " +
  "then reload this page. The API under /api works meanwhile.";

export interface WebAppOptions {
  /** The Vite build output: index.html and assets/. */
  distDir: string;
}

/** The answer for a path outside /api that no file matched. */
export type WebFallback = (request: FastifyRequest, reply: FastifyReply) => unknown;

function isAssetPath(url: string): boolean {
  return url.startsWith("/assets/");
}

/**
 * Serves the built web app and returns the fallback for other paths: index.html for any GET,
 * with status 200 for the app's own routes and 404 for any other path (the web router shows its
 * 404 screen; docs/decisions/0028), or a 503 saying how to build when there is no build.
 */
export async function registerWebApp(
  app: FastifyInstance,
  options: WebAppOptions,
): Promise<WebFallback> {
  if (!existsSync(join(options.distDir, "index.html"))) {
    app.log.warn(`No web build in ${options.distDir}: pages answer 503 until \`npm run build\``);
    return (request, reply) => {
      if (request.method !== "GET" && request.method !== "HEAD") {
        return reply.code(404).type("text/plain; charset=utf-8").send("Not found");
      }
      return reply.code(503).type("text/plain; charset=utf-8").send(NOT_BUILT);
    };
  }

  await app.register(
    fp(async (instance: FastifyInstance) => {
      await instance.register(fastifyStatic, {
        root: options.distDir,
        prefix: "/",
        // Our own Cache-Control below; the plugin's would overwrite it.
        cacheControl: false,
        setHeaders: (reply, path) => {
          const relative = path.slice(options.distDir.length).split(sep).join("/");
          if (relative === EMBED_SCRIPT_PATH) {
            reply.header("cache-control", EMBED_SCRIPT_CACHE);
            // Another site's <script> is a cross-origin load: same-origin (the page set's) refuses it.
            reply.header("cross-origin-resource-policy", "cross-origin");
            return;
          }
          reply.header("cache-control", isAssetPath(relative) ? IMMUTABLE : REVALIDATE);
        },
        // The routes are API documentation noise: hide them from the OpenAPI document.
        schemaHide: true,
      });
    }),
  );

  return (request, reply) => {
    const isRead = request.method === "GET" || request.method === "HEAD";
    // A missing hashed asset is a stale page asking for an old build: HTML would not help it.
    if (!isRead || isAssetPath(request.url)) {
      return reply.code(404).type("text/plain; charset=utf-8").send("Not found");
    }
    reply.header("cache-control", REVALIDATE);
    const pathname = request.url.split("?")[0] ?? "/";
    if (!isKnownWebPath(pathname)) reply.code(404);
    return reply.sendFile("index.html", options.distDir, { cacheControl: false });
  };
}
