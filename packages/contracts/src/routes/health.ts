import { healthResponseSchema } from "../api";
import { defineRoute } from "./define";

/** Liveness for the load balancer and the operator (apps/server/src/modules/health). */
export const healthRoutes = {
  check: defineRoute({
    method: "GET",
    path: "/api/health",
    access: "public",
    tags: ["health"],
    summary: "Liveness, database state, and where the rate limits count",
    response: healthResponseSchema,
    otherResponses: { 503: healthResponseSchema },
  }),
} as const;
