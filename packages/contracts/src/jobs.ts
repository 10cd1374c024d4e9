import { z } from "zod";
import { pagedListResponse, pageQueryFields } from "./paged-list";

// The admin's Jobs panel (issue 28): GET /api/admin/jobs and POST /api/admin/jobs/{id}/retry.

/** pg-boss's states of a job. */
export const JOB_STATES = [
  "created",
  "retry",
  "active",
  "completed",
  "cancelled",
  "failed",
] as const;
export type JobState = (typeof JOB_STATES)[number];

/** The panel's filters: queued (created, or waiting for a retry), running, failed. */
export const JOB_FILTERS = ["all", "queued", "running", "failed"] as const;
export type JobFilter = (typeof JOB_FILTERS)[number];

export const adminJobSchema = z.object({
  _id: z.string(),
  /** The job's name (its queue), e.g. `billing.renewals`. */
  queue: z.string(),
  state: z.enum(JOB_STATES),
  /** Retries so far (0 on the first attempt) and how many it may have. */
  retryCount: z.number().int(),
  retryLimit: z.number().int(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** The last attempt's error message (failed jobs and jobs waiting for a retry). */
  error: z.string().nullable(),
});
export type AdminJob = z.infer<typeof adminJobSchema>;

export const adminQueueSummarySchema = z.object({
  queue: z.string(),
  queued: z.number().int(),
  running: z.number().int(),
  failed: z.number().int(),
  /** Jobs that failed their last retry and were copied to the queue's dead-letter queue. */
  deadLettered: z.number().int(),
});
export type AdminQueueSummary = z.infer<typeof adminQueueSummarySchema>;

export const adminJobsQuerySchema = z.object({
  ...pageQueryFields({ limit: 20, maxLimit: 100 }),
  state: z.enum(JOB_FILTERS).default("all"),
});
export type AdminJobsQuery = z.infer<typeof adminJobsQuerySchema>;

export const adminJobsResponseSchema = pagedListResponse(adminJobSchema).extend({
  queues: z.array(adminQueueSummarySchema),
});
export type AdminJobsResponse = z.infer<typeof adminJobsResponseSchema>;

export const adminJobIdParamsSchema = z.object({ id: z.uuid({ error: "Invalid job id" }) });

export const adminJobRetryResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: adminJobSchema,
});
export type AdminJobRetryResponse = z.infer<typeof adminJobRetryResponseSchema>;
