/** What the service worker serves offline in place of a page (apps/web/public/offline.html). */
export const OFFLINE_PAGE = "/offline.html";

/**
 * Paths the service worker never answers, not even as a page: the API (its REST calls, its event
 * streams and the sign-in redirects under /api/auth), the uploaded files and the VAD model.
 */
export const PASS_THROUGH_PATHS = [/^\/api(\/|$)/, /^\/uploads\//, /^\/vad\//];

type StaticRoute = {
  condition: { urlPattern: { pathname: string } };
  source: "network" | { cacheName: string };
};

/**
 * Static routes (Chromium's InstallEvent.addRoutes), which the browser follows without waking the
 * worker, so no request waits for it to start: the pass-through paths and the build's other hashed
 * files go to the network (and the HTTP cache, where they are immutable), the precached ones
 * (`precached`, e.g. "/assets/index-Ab12.js") to the precache `precacheName`. Pages and the
 * offline page's files still go through the worker.
 */
export function staticRoutes(precacheName: string, precached: readonly string[]): StaticRoute[] {
  return [
    ...["/api/*", "/uploads/*", "/vad/*"].map((pathname) => ({
      condition: { urlPattern: { pathname } },
      source: "network" as const,
    })),
    ...precached.map((pathname) => ({
      condition: { urlPattern: { pathname } },
      source: { cacheName: precacheName },
    })),
    { condition: { urlPattern: { pathname: "/assets/*" } }, source: "network" as const },
  ];
}
