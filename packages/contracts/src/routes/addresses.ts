import type { RouteAddress } from "./define";

/**
 * The addresses of the calls made on the landing page's first load, with no schema: that page
 * carries no zod (decision 0033). Their definitions in the table spread these, so each path is
 * still written once.
 */

export const csrfTokenAddress = {
  method: "GET",
  path: "/api/csrf-token",
  access: "public",
} as const satisfies RouteAddress;

export const publicSettingsAddress = {
  method: "GET",
  path: "/api/settings",
  access: "public",
} as const satisfies RouteAddress;

/** The API's root: the path of the cookies only API calls carry (the trial's device). */
export const API_ROOT = "/api";

/** The prefix of every API path (the CSRF hook and the static fallback tell API calls by it). */
export const API_PREFIX = `${API_ROOT}/`;

/** Where the server serves its OpenAPI document (`/json`) and Swagger UI, a page, not JSON. */
export const API_DOCS_PATH = `${API_ROOT}/docs`;
