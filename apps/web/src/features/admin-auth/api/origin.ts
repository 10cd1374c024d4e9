import type { Location } from "react-router";

/** Where login sends the admin when they did not come from a guarded page. */
export const ADMIN_DEFAULT_ROUTE = "/admin/dashboard";
/** The guard's login route, as the spec writes it (/admin/login is the same route). */
export const ADMIN_LOGIN_ROUTE = "/admin/Login";

/** What the guard leaves in the navigation state for the login page. */
export interface AdminLoginState {
  from?: string;
}

export function originOf(location: Pick<Location, "pathname" | "search" | "hash">): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/** The remembered origin, kept only when it is an admin page other than login. */
export function returnPath(state: unknown): string {
  const from = (state as AdminLoginState | null)?.from;
  if (typeof from === "string" && /^\/admin(\/|$)/.test(from) && !/^\/admin\/login/i.test(from)) {
    return from;
  }
  return ADMIN_DEFAULT_ROUTE;
}
