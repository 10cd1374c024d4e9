import { API_ROOT } from "./addresses";
import type { RouteAddress } from "./define";

/**
 * The session calls a stored session makes on the landing page's first load (the user's refresh
 * and the logout), with no schema: that page carries no zod (decision 0033). Their definitions
 * in the table (routes/auth.ts) spread these, so each path is still written once.
 */

export const meAddress = {
  method: "GET",
  path: "/api/auth/me",
  access: "fan",
} as const satisfies RouteAddress;

export const logoutAddress = {
  method: "POST",
  path: "/api/auth/logout",
  access: "fan",
} as const satisfies RouteAddress;

/** The path of the cookies only the sign-in calls carry (the age refusal's mark, decision 0054). */
export const AUTH_COOKIE_PATH = `${API_ROOT}/auth`;

/** Where the admin API lives (the server's admin scope). */
export const ADMIN_API_PREFIX = `${API_ROOT}/admin`;
