/** What the service worker serves offline in place of a page (apps/web/public/offline.html). */
export const OFFLINE_PAGE = "/offline.html";

/**
 * Paths the service worker never answers, not even as a page: the API (its REST calls, its event
 * streams and the sign-in redirects under /api/auth), the uploaded files and the VAD model.
 */
export const PASS_THROUGH_PATHS = [/^\/api(\/|$)/, /^\/uploads\//, /^\/vad\//];

/**
 * The same paths as static routes (Chromium's InstallEvent.addRoutes): the browser sends their
 * requests to the network without waking this worker at all, so an API call never waits for it.
 */
export const PASS_THROUGH_ROUTES = ["/api/*", "/uploads/*", "/vad/*"].map((pathname) => ({
  condition: { urlPattern: { pathname } },
  source: "network" as const,
}));
