import { createHash } from "node:crypto";
import { APP_THEME_COLOR, type PublicSettings } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";

/**
 * The installed app's web app manifest, built from the current settings on each request, so an
 * admin's new site name or favicon shows without a rebuild (docs/decisions/0079-installable-app.md).
 */

export const WEB_MANIFEST_PATH = "/manifest.webmanifest";
export const WEB_MANIFEST_TYPE = "application/manifest+json; charset=utf-8";

/** The icons every build ships (apps/web/public/icons, made by scripts/make-app-icons.mjs). */
export const DEFAULT_APP_ICONS = [
  { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
  { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
  { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
] as const;

/** The home-screen label: launchers cut names past about 12 characters. */
const SHORT_NAME_MAX = 12;

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose: string;
}

function shortNameOf(siteName: string): string {
  if (siteName.length <= SHORT_NAME_MAX) return siteName;
  const firstWord = siteName.split(/\s+/)[0] ?? "";
  return firstWord.length <= SHORT_NAME_MAX ? firstWord : siteName.slice(0, SHORT_NAME_MAX);
}

/**
 * The admin's favicon leads the icons when it is an SVG: it scales to any size. A raster one is
 * not listed, as its pixel size is not known here and a wrong `sizes` makes launchers blur it;
 * the built-in icons stand in.
 */
function iconsOf(settings: Readonly<PublicSettings>): ManifestIcon[] {
  const favicon = settings.favicon.trim();
  const path = favicon.split(/[?#]/)[0]?.toLowerCase() ?? "";
  const own: ManifestIcon[] = path.endsWith(".svg")
    ? [{ src: favicon, sizes: "any", type: "image/svg+xml", purpose: "any" }]
    : [];
  return [...own, ...DEFAULT_APP_ICONS];
}

export function buildWebManifest(settings: Readonly<PublicSettings>) {
  return {
    id: "/",
    name: settings.siteName,
    short_name: shortNameOf(settings.siteName),
    description: `Chat and call ${settings.aiProfile.name}, the official AI twin.`,
    start_url: "/",
    scope: "/",
    display: "standalone",
    orientation: "any",
    theme_color: APP_THEME_COLOR,
    background_color: "#ffffff",
    icons: iconsOf(settings),
  };
}

export const webManifestRoutes: FastifyPluginAsync<{
  settings: { get(): Promise<Readonly<PublicSettings>> };
}> = async (app, { settings }) => {
  app.get(WEB_MANIFEST_PATH, { schema: { hide: true } }, async (request, reply) => {
    const body = JSON.stringify(buildWebManifest(await settings.get()));
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    // Revalidated each time, like the settings: an admin's change shows at the next launch.
    reply.header("cache-control", "no-cache").header("etag", etag);
    if (request.headers["if-none-match"] === etag) return reply.code(304).send();
    return reply.type(WEB_MANIFEST_TYPE).send(body);
  });
};
