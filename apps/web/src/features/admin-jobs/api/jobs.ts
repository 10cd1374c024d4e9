import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  adminJobRetryResponseSchema,
  adminJobsResponseSchema,
  type JobFilter,
} from "@twinline/contracts";
import { api } from "@/lib/api-client";

export const JOBS_PAGE_SIZE = 20;

/** GET /api/admin/jobs: the jobs of one filter, newest first, and every queue's counts. */
export function fetchJobs(filter: JobFilter, page: number, signal?: AbortSignal) {
  return api.get("/api/admin/jobs", {
    signal,
    query: { state: filter, page: String(page), limit: String(JOBS_PAGE_SIZE) },
    schema: adminJobsResponseSchema,
  });
}

export const jobsQuery = (filter: JobFilter, page: number) =>
  queryOptions({
    queryKey: ["admin", "jobs", filter, page] as const,
    queryFn: ({ signal }) => fetchJobs(filter, page, signal),
    placeholderData: keepPreviousData,
  });

/** POST /api/admin/jobs/{id}/retry: a failed job is queued again. */
export const retryJob = (id: string) =>
  api.post(`/api/admin/jobs/${encodeURIComponent(id)}/retry`, undefined, {
    schema: adminJobRetryResponseSchema,
  });
