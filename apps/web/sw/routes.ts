/** What the service worker serves offline in place of a page (apps/web/public/offline.html). */
export const OFFLINE_PAGE = "/offline.html";

/**
 * Paths the service worker never answers, not even as a page: the API (its REST calls, its event
 * streams and the sign-in redirects under /api/auth), the uploaded files and the VAD model.
 */
export const PASS_THROUGH_PATHS = [/^\/api(\/|$)/, /^\/uploads\//, /^\/vad\//];
