import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { type JobFilter, routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api-client";

export const JOBS_PAGE_SIZE = 20;

/** The jobs of one filter, newest first, and every queue's counts. */
export function fetchJobs(filter: JobFilter, page: number, signal?: AbortSignal) {
  return callRoute(routes.jobs.list, {
    signal,
    query: { state: filter, page, limit: JOBS_PAGE_SIZE },
  });
}

export const jobsQuery = (filter: JobFilter, page: number) =>
  queryOptions({
    queryKey: ["admin", "jobs", filter, page] as const,
    queryFn: ({ signal }) => fetchJobs(filter, page, signal),
    placeholderData: keepPreviousData,
  });

/** A failed job is queued again. */
export const retryJob = (id: string) => callRoute(routes.jobs.retry, { params: { id } });
