/// <reference lib="webworker" />
// The service worker (docs/decisions/0079-installable-app.md), built by vite-plugin-pwa
// (injectManifest) into dist/sw.js, which the server answers with Cache-Control: no-cache.
import { cacheNames } from "workbox-core";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { NetworkOnly } from "workbox-strategies";
import { openFromNotification, showPush } from "./push";
import { OFFLINE_PAGE, PASS_THROUGH_PATHS, staticRoutes } from "./routes";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

/** The static routing API, where the browser has it (Chromium; not yet in TypeScript's lib). */
type InstallEventWithRoutes = ExtendableEvent & {
  addRoutes?: (rules: ReturnType<typeof staticRoutes>) => Promise<void>;
};

// The app shell (written into this file at build time; app-shell.ts says which files).
const SHELL = self.__WB_MANIFEST;

// Where the browser can route requests itself, the API, uploads, VAD files and hashed assets
// never wake this worker; elsewhere it leaves the first three alone (no route below answers them).
self.addEventListener("install", (event: InstallEventWithRoutes) => {
  if (!event.addRoutes) return;
  const precached = SHELL.map((entry) => (typeof entry === "string" ? entry : entry.url))
    .filter((url) => url.startsWith("assets/"))
    .map((url) => `/${url}`);
  event.waitUntil(event.addRoutes(staticRoutes(cacheNames.precache, precached)).catch(() => {}));
});

// A new build's worker takes over at once from the old one, and the pages it then controls reload
// onto it (src/lib/service-worker.ts): no page keeps running one build's code against another
// build's files. No clients.claim(): a first visit's page, loaded without a worker, finishes its
// session without one, rather than changing hands while the visitor signs up.
self.skipWaiting();

// The app shell: the offline page and the landing page's own scripts and styles.
cleanupOutdatedCaches();
precacheAndRoute(SHELL);

// Pages come from the network, always (never a stale page, and the server's 404s stay 404s);
// with no network, the offline page says so. Navigation preload starts the request while this
// worker wakes up.
self.addEventListener("activate", (event) => {
  event.waitUntil(self.registration.navigationPreload?.enable() ?? Promise.resolve());
});
const pages = new NetworkOnly();
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await pages.handle(options);
      } catch {
        return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
      }
    },
    { denylist: PASS_THROUGH_PATHS },
  ),
);
// Nothing else has a route: the API (REST and its event streams), uploads and the voice call's
// files go to the network untouched, and a WebSocket never passes through a service worker.

// Notifications the fan asked for (issue 27 item 3, docs/decisions/0082; sw/push.ts).
self.addEventListener("push", (event) => event.waitUntil(showPush(self, event)));
self.addEventListener("notificationclick", (event) =>
  event.waitUntil(openFromNotification(self, event)),
);
