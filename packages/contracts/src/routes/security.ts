import { csrfTokenResponseSchema } from "../api";
import { CSRF_HEADER } from "../constants";
import { csrfTokenAddress } from "./addresses";
import { defineRoute } from "./define";

/** The CSRF token (apps/server/src/plugins/csrf.ts). */
export const securityRoutes = {
  csrfToken: defineRoute({
    ...csrfTokenAddress,
    tags: ["security"],
    summary: `A token to send in the ${CSRF_HEADER} header of state-changing requests`,
    response: csrfTokenResponseSchema,
  }),
} as const;
