import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type AdminJob, JOB_FILTERS, type JobFilter, type JobState } from "@twinline/contracts";
import { useState } from "react";
import toast from "react-hot-toast";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { inputClasses } from "@/components/ui/field";
import { ListPager } from "@/components/ui/list-pager";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { type LogColumn, LogTable, mutedText } from "@/components/ui/log-table";
import { PageHeader } from "@/components/ui/page-header";
import { thClasses, wordWrapTdClasses } from "@/components/ui/sortable-header";
import { TableScroll } from "@/components/ui/table-scroll";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { errorMessage } from "@/lib/api-client";
import { formatTimestamp } from "@/lib/format";
import { jobsQuery, retryJob } from "../api/jobs";

const FILTER_LABELS: Record<JobFilter, string> = {
  all: "All jobs",
  queued: "Queued",
  running: "Running",
  failed: "Failed",
};

const STATE_BADGES: Record<JobState, { label: string; tone: BadgeTone }> = {
  created: { label: "Queued", tone: "blue" },
  retry: { label: "Waiting to retry", tone: "yellow" },
  active: { label: "Running", tone: "brand" },
  completed: { label: "Done", tone: "green" },
  cancelled: { label: "Cancelled", tone: "grey" },
  failed: { label: "Failed", tone: "red" },
};

const JOB_COLUMNS: LogColumn[] = [
  { label: "Queue", width: "w-[12rem]" },
  { label: "State", width: "w-[9rem]" },
  { label: "Created", width: "w-[8.5rem]" },
  { label: "Attempts", width: "w-[6rem]" },
  { label: "Error" },
  { label: "Action", width: "w-[7rem]" },
];

/**
 * /admin/jobs: the background jobs (docs/decisions/0072): each queue's counts, then the jobs of
 * one filter, newest first, with the last error; a failed job can be queued again.
 */
export function AdminJobsPage() {
  useDocumentTitle("Jobs · Twinline Admin");
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<JobFilter>("all");
  const [page, setPage] = useState(1);
  const jobs = useQuery(jobsQuery(filter, page));
  const retry = useMutation({
    mutationFn: (job: AdminJob) => retryJob(job._id),
    onSuccess: (answer) => {
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: ["admin", "jobs"] });
    },
    onError: (error) => toast.error(errorMessage(error, "Could not retry the job")),
  });

  const rows = jobs.data?.data ?? [];
  const queues = jobs.data?.queues ?? [];
  const pagination = jobs.data?.pagination;

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Jobs"
        description="Background work: renewals, sweeps, e-mails. Failed jobs show their error and can be retried."
      />
      <Card className="overflow-hidden">
        {jobs.isPending ? (
          <LoadingState label="Loading the jobs" />
        ) : jobs.isError && !jobs.data ? (
          <ErrorState message="Failed to load the jobs" onRetry={() => jobs.refetch()} />
        ) : (
          <TableScroll label="Queues">
            <table className="w-full min-w-[32rem] text-left text-sm">
              <caption className="sr-only">Queues</caption>
              <thead>
                <tr>
                  {["Queue", "Queued", "Running", "Failed", "Dead-lettered"].map((label) => (
                    <th key={label} scope="col" className={thClasses}>
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100 dark:divide-white/5">
                {queues.map((queue) => (
                  <tr key={queue.queue} data-testid="queue-row">
                    <th scope="row" className={`${wordWrapTdClasses} font-mono text-xs`}>
                      {queue.queue}
                    </th>
                    <td className={wordWrapTdClasses}>{queue.queued}</td>
                    <td className={wordWrapTdClasses}>{queue.running}</td>
                    <td className={wordWrapTdClasses}>{queue.failed}</td>
                    <td className={wordWrapTdClasses}>{queue.deadLettered}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Card>
      <Card className="overflow-hidden">
        <div className="flex flex-wrap items-end gap-3 p-4">
          <label className="block text-sm font-medium text-stone-700 dark:text-stone-300">
            Show
            <select
              className={`${inputClasses} mt-1.5`}
              value={filter}
              onChange={(event) => {
                setFilter(event.target.value as JobFilter);
                setPage(1);
              }}
            >
              {JOB_FILTERS.map((value) => (
                <option key={value} value={value}>
                  {FILTER_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className={buttonClasses("secondary", "md")}
            onClick={() => jobs.refetch()}
            disabled={jobs.isFetching}
          >
            Refresh
          </button>
        </div>
        {jobs.isPending ? null : jobs.isError && !jobs.data ? null : rows.length === 0 ? (
          <p className="px-6 py-16 text-center text-sm text-stone-600 dark:text-stone-400">
            No jobs found
          </p>
        ) : (
          <LogTable caption="Jobs" columns={JOB_COLUMNS}>
            {rows.map((job) => {
              const badge = STATE_BADGES[job.state];
              return (
                <tr key={job._id} data-testid="job-row" className="align-top">
                  <td className={`${wordWrapTdClasses} font-mono text-xs break-all`}>
                    {job.queue}
                    <span className={`block ${mutedText}`} title={job._id}>
                      {job._id.slice(0, 8)}
                    </span>
                  </td>
                  <td className={wordWrapTdClasses}>
                    <Badge tone={badge.tone}>{badge.label}</Badge>
                  </td>
                  <td className={wordWrapTdClasses}>{formatTimestamp(job.createdAt)}</td>
                  <td className={wordWrapTdClasses}>
                    {job.retryCount + (job.state === "created" ? 0 : 1)} of {job.retryLimit + 1}
                  </td>
                  <td className={`${wordWrapTdClasses} break-words`} data-testid="job-error">
                    {job.error ?? <span className={mutedText}>—</span>}
                  </td>
                  <td className={wordWrapTdClasses}>
                    {job.state === "failed" ? (
                      <button
                        type="button"
                        className={buttonClasses("primary", "sm")}
                        disabled={retry.isPending}
                        aria-label={`Retry ${job.queue} job ${job._id.slice(0, 8)}`}
                        onClick={() => retry.mutate(job)}
                      >
                        Retry
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </LogTable>
        )}
        {pagination && pagination.pages > 1 && (
          <ListPager
            pagination={pagination}
            page={page}
            onPage={setPage}
            disabled={jobs.isFetching}
            noun="jobs"
          />
        )}
      </Card>
    </div>
  );
}
