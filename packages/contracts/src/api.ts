import { z } from "zod";

/** Every error the API answers (DESIGN.md, API conventions). */
export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  error: z.unknown().optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const paginationSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  pages: z.number().int(),
});
export type Pagination = z.infer<typeof paginationSchema>;

export const csrfTokenResponseSchema = z.object({ csrfToken: z.string() });

export const healthResponseSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.object({ status: z.enum(["up", "down"]), kind: z.enum(["pglite", "postgres"]) }),
  /**
   * Where the rate limits count: `degraded` while REDIS_URL's Redis fails and each instance
   * counts on its own (every limit still holds, per instance).
   */
  rateLimits: z.object({
    store: z.enum(["memory", "redis"]),
    status: z.enum(["up", "degraded"]),
  }),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export { CSRF_HEADER } from "./constants";
