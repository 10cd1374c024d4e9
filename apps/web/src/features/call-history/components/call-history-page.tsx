import { useQuery } from "@tanstack/react-query";
import {
  CALL_HISTORY_PAGE_SIZE,
  callHistoryQuerySchema,
  type VoiceCallRecord,
} from "@twinline/contracts";
import { FileText, History, Phone } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/load-states";
import { PageHeader } from "@/components/ui/page-header";
import { PageNumbers } from "@/components/ui/page-numbers";
import { PagedTable, type TableColumn, usePageRange } from "@/components/ui/paged-table";
import { tdClasses } from "@/components/ui/sortable-header";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useListParams } from "@/hooks/use-list-params";
import { formatDateTime, formatDuration, formatTime } from "@/lib/format";
import { CALL_HISTORY_TEXT, callHistoryQuery } from "../api/call-history";
import { CallTranscriptDialog } from "./call-transcript-dialog";

const COLUMNS: readonly TableColumn<"startTime">[] = [
  { label: "Date" },
  { label: "Duration" },
  { label: "Credits consumed" },
  { label: "Ended" },
  { label: "Transcript" },
];

const FIXED = { limit: CALL_HISTORY_PAGE_SIZE };

function CallRow({ call, onOpen }: { call: VoiceCallRecord; onOpen: () => void }) {
  return (
    <tr data-testid="call-row">
      <td className={tdClasses}>{formatDateTime(call.startTime)}</td>
      <td className={tdClasses}>{formatDuration(call.duration)}</td>
      <td className={tdClasses}>{call.creditsConsumed}</td>
      <td className={tdClasses}>{call.endTime ? formatTime(call.endTime) : "In progress"}</td>
      <td className={tdClasses}>
        <button
          type="button"
          onClick={onOpen}
          className={buttonClasses("ghost", "sm")}
          aria-label={`View the transcript of the call of ${formatDateTime(call.startTime)}`}
        >
          <FileText aria-hidden="true" className="size-4" />
          View
        </button>
      </td>
    </tr>
  );
}

/** `/dashboard/call-history`: the user's calls, newest first, 10 per page. */
export function CallHistoryPage() {
  const { params, update } = useListParams(callHistoryQuerySchema, { fixed: FIXED });
  const history = useQuery(callHistoryQuery(params));
  const goTo = (page: number) => update({ page });
  const pagination = history.data?.pagination;
  const { first, last } = usePageRange(pagination, params.page, goTo);

  useDocumentTitle("Call History · Twinline");

  const calls = history.data?.calls ?? [];
  const [opened, setOpened] = useState<VoiceCallRecord | null>(null);
  return (
    <div className="space-y-6">
      <PageHeader title="Call History" description="Your voice calls, their length and cost." />
      <Card className="overflow-hidden">
        {history.isError && !history.data ? (
          <ErrorState
            layout="inline"
            message={CALL_HISTORY_TEXT.failedInline}
            onRetry={() => void history.refetch()}
          />
        ) : !history.isPending && calls.length === 0 ? (
          <div className="flex flex-col items-center gap-3 px-4 py-14 text-center">
            <span className="flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300">
              <History aria-hidden="true" className="size-7" />
            </span>
            <p className="font-semibold text-stone-900 dark:text-white">No calls yet</p>
            <p className="text-sm text-stone-600 dark:text-stone-400">
              Your voice calls will show up here.
            </p>
            <Link to="/dashboard/call" className={buttonClasses("primary", "sm")}>
              <Phone aria-hidden="true" className="size-4" />
              Start a call
            </Link>
          </div>
        ) : (
          <>
            {history.isError && (
              <p role="alert" className="px-4 pt-3 text-sm text-red-700 dark:text-red-300">
                {CALL_HISTORY_TEXT.failedInline}
              </p>
            )}
            <PagedTable
              caption="Call history"
              columns={COLUMNS}
              sortBy="startTime"
              sortOrder={-1}
              onSort={() => undefined}
              pending={history.isPending}
              fetching={history.isFetching}
              placeholder={history.isPlaceholderData}
            >
              {calls.map((call) => (
                <CallRow key={call._id} call={call} onOpen={() => setOpened(call)} />
              ))}
            </PagedTable>
            {pagination && pagination.total > 0 && (
              <PageNumbers
                page={params.page}
                pages={pagination.pages}
                onPage={goTo}
                disabled={history.isFetching}
                summary={`Showing ${first} to ${last} of ${pagination.total} calls`}
              />
            )}
          </>
        )}
      </Card>
      <CallTranscriptDialog
        callId={opened?._id ?? null}
        title={
          opened ? `${formatDateTime(opened.startTime)} · ${formatDuration(opened.duration)}` : ""
        }
        onClose={() => setOpened(null)}
      />
    </div>
  );
}
