/**
 * Every path the web app shows a screen for (user-side and admin-side spec, section 2), shared by
 * the server (which answers HTTP 404 for any other page path, with the app's body, so the 404
 * screen shows: docs/decisions/0028) and the web router (whose test checks each one routes).
 *
 * `:name` matches one segment, a final `*` any rest (the dashboard sends unknown sub-routes to
 * the overview). Matching ignores case, as React Router does, and a trailing slash.
 */
export const WEB_ROUTE_PATTERNS = [
  "/",
  "/auth",
  "/reset-password",
  "/reset-password/:resettoken",
  "/character/:id",
  "/character-chat/:id",
  "/chat",
  "/characters",
  "/premium",
  "/about",
  "/terms",
  "/privacy",
  "/refunds",
  "/safety",
  "/contact",
  "/faq",
  "/checkout/sandbox/:sessionId",
  "/dashboard-old",
  "/dashboard",
  "/dashboard/*",
  "/admin",
  "/admin/login",
  "/admin/dashboard",
  "/admin/users",
  "/admin/users/:userId",
  "/admin/chat-logs",
  "/admin/api-keys",
  "/admin/subscriptions",
  "/admin/AITraining",
  "/admin/Settings",
  "/admin/ManageCredits",
  "/admin/UserAnalytics",
  "/admin/subscription-transactions",
  "/admin/credit-transactions",
  "/admin/subscription-history",
  // Added by issue 16 (decision 0050), beyond the spec's table.
  "/admin/audit-log",
  "/admin/jobs",
  // Added by issue 27 (decision 0083).
  "/admin/promotion-codes",
  // Issue 27 item 5 (decision 0085): the chat in the creator's site's frame, and its sign-in popup.
  "/embed",
  "/embed/sign-in",
] as const;

function segments(path: string): string[] {
  return path.split("/").filter(Boolean);
}

/** Whether `pattern` (of WEB_ROUTE_PATTERNS) matches `pathname` (no query). */
export function matchesWebRoute(pattern: string, pathname: string): boolean {
  const want = segments(pattern);
  const have = segments(pathname);
  for (let i = 0; i < want.length; i++) {
    const part = want[i] ?? "";
    if (part === "*" && i === want.length - 1) return true;
    const segment = have[i];
    if (segment === undefined) return false;
    if (part.startsWith(":")) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    if (decoded.toLowerCase() !== part.toLowerCase()) return false;
  }
  return have.length === want.length;
}

/** Whether the web app has a screen (not its 404) for `pathname`. */
export function isKnownWebPath(pathname: string): boolean {
  return WEB_ROUTE_PATTERNS.some((pattern) => matchesWebRoute(pattern, pathname));
}
