/// <reference lib="webworker" />
// The service worker (docs/decisions/0079-installable-app.md), built by vite-plugin-pwa
// (injectManifest) into dist/sw.js, which the server answers with Cache-Control: no-cache.
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { NetworkOnly } from "workbox-strategies";
import { OFFLINE_PAGE, PASS_THROUGH_PATHS, PASS_THROUGH_ROUTES } from "./routes";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

/** The static routing API, where the browser has it (Chromium; not yet in TypeScript's lib). */
type InstallEventWithRoutes = ExtendableEvent & {
  addRoutes?: (rules: typeof PASS_THROUGH_ROUTES) => Promise<void>;
};

// The API, uploads and the VAD files skip this worker entirely where the browser can route them
// itself; elsewhere the worker leaves them alone (no route below answers them).
self.addEventListener("install", (event: InstallEventWithRoutes) => {
  if (event.addRoutes) event.waitUntil(event.addRoutes(PASS_THROUGH_ROUTES).catch(() => {}));
});

// A new build's worker takes over at once and the pages reload onto it (src/lib/service-worker.ts):
// no page keeps running one build's code against another build's files.
self.skipWaiting();
clientsClaim();

// The app shell: the offline page and the landing page's own scripts and styles (the list is
// written into this file at build time; app-shell.ts says which files).
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

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
