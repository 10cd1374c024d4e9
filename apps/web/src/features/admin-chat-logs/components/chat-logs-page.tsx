import { useQuery } from "@tanstack/react-query";
import { type ChatLog, chatLogsQuerySchema } from "@twinline/contracts";
import { clsx } from "clsx";
import { Download, LoaderCircle } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import toast from "react-hot-toast";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ListPager } from "@/components/ui/list-pager";
import { ErrorState } from "@/components/ui/load-states";
import { PageHeader } from "@/components/ui/page-header";
import { PagedTable, type TableColumn, TableEmptyMessage } from "@/components/ui/paged-table";
import { EmailText, PersonNameCell } from "@/components/ui/person-cells";
import { useDebouncedSearch } from "@/components/ui/search-box";
import { tdClasses, wordWrapTdClasses } from "@/components/ui/sortable-header";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useListParams } from "@/hooks/use-list-params";
import { csvFileName, downloadFile } from "@/lib/csv";
import { formatDateTime, formatDuration } from "@/lib/format";
import {
  CHAT_LOGS_PAGE_SIZE,
  type ChatLogSortField,
  type ChatLogsParams,
  chatLogsQuery,
  exportChatLogs,
} from "../api/chat-logs";
import { ChatLogFilters } from "./chat-log-filters";
import { ConversationDialog } from "./conversation-dialog";

const COLUMNS: TableColumn<ChatLogSortField>[] = [
  { label: "User" },
  { label: "Character" },
  { label: "Start Time", sortBy: "startTime" },
  { label: "Last Message", sortBy: "lastMessageAt" },
  { label: "Duration", sortBy: "duration" },
  { label: "Messages", sortBy: "messageCount" },
  { label: "Plan" },
  { label: "Calls" },
];

/** What the address never carries: the page size. */
const FIXED = { limit: CHAT_LOGS_PAGE_SIZE };

/** /admin/chat-logs: real conversations, searched, filtered by plan and dates, sorted, paged, exported. */
export function AdminChatLogsPage() {
  // Page, filters and sort live in the address, read through the contract's query schema.
  const list = useListParams(chatLogsQuerySchema, { fixed: FIXED });
  const { update, filter, sort, reset, defaults } = list;
  const params = useMemo<ChatLogsParams>(
    () => ({
      page: list.params.page,
      search: list.params.search ?? "",
      plan: list.params.plan,
      channel: list.params.channel,
      flagged: list.params.flagged,
      startDate: list.params.startDate ?? "",
      endDate: list.params.endDate ?? "",
      sortBy: list.params.sortBy,
      sortOrder: list.params.sortOrder === 1 ? 1 : -1,
    }),
    [list.params],
  );
  const logs = useQuery(chatLogsQuery(params));
  const [searchText, setSearchText] = useDebouncedSearch(params.search, (search) =>
    filter({ search }),
  );
  const [open, setOpen] = useState<ChatLog | null>(null);
  const [exporting, setExporting] = useState(false);

  useDocumentTitle("Chat Logs · Twinline Admin");

  // The error toast, once per failure.
  useEffect(() => {
    if (logs.isError) toast.error("Failed to load chat logs", { id: "chat-logs-error" });
  }, [logs.isError]);

  const pagination = logs.data?.pagination;
  const rows = logs.data?.logs ?? [];

  const filtered =
    params.search !== "" ||
    params.plan !== defaults.plan ||
    params.channel !== defaults.channel ||
    params.flagged !== defaults.flagged ||
    params.startDate !== "" ||
    params.endDate !== "";

  const onExport = async () => {
    setExporting(true);
    try {
      const { page: _page, ...filters } = params;
      const blob = await exportChatLogs(filters);
      downloadFile.save(csvFileName("chat-logs"), blob);
      toast.success(
        <span>
          <strong className="block">Export Complete</strong>
          Chat logs exported to CSV
        </span>,
      );
    } catch {
      toast.error(
        <span>
          <strong className="block">Export Failed</strong>
          Failed to export chat logs
        </span>,
      );
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <PageHeader
          title="Chat Logs"
          description="Conversations between users and the persona. Open one to read its messages."
        />
        <button
          type="button"
          onClick={() => void onExport()}
          disabled={exporting}
          className={buttonClasses("secondary", "sm", "self-start sm:self-auto")}
        >
          {exporting ? (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <Download aria-hidden="true" className="size-4" />
          )}
          Export CSV
        </button>
      </div>

      <Card className="overflow-hidden">
        <ChatLogFilters
          params={params}
          searchText={searchText}
          onSearchText={setSearchText}
          filter={filter}
          filtered={filtered}
          onReset={() => {
            setSearchText("");
            reset();
          }}
        />

        {logs.isError && !logs.data ? (
          <ErrorState
            layout="inline"
            message="Failed to load chat logs"
            onRetry={() => logs.refetch()}
          />
        ) : (
          <>
            <PagedTable
              caption="Chat logs"
              columns={COLUMNS}
              sortBy={params.sortBy}
              sortOrder={params.sortOrder}
              onSort={sort}
              pending={logs.isPending}
              fetching={logs.isFetching}
              placeholder={logs.isPlaceholderData}
            >
              {rows.map((log) => (
                <tr
                  key={log._id}
                  data-testid="chat-log-row"
                  onClick={() => setOpen(log)}
                  className="cursor-pointer hover:bg-stone-50 dark:hover:bg-white/[0.03]"
                >
                  <PersonNameCell person={log.user} className="min-w-[12rem]">
                    <button
                      type="button"
                      onClick={(event) => {
                        event.stopPropagation();
                        setOpen(log);
                      }}
                      aria-label={`Open the conversation of ${log.user.name}, started ${formatDateTime(log.startTime)}`}
                      className="text-left font-medium text-stone-900 hover:text-brand-600 dark:text-white dark:hover:text-brand-300"
                    >
                      {log.user.name}
                    </button>
                    <p className="text-xs text-stone-500 dark:text-stone-400">
                      <EmailText email={log.user.email} />
                    </p>
                    {log.flagged ? (
                      <Badge tone="red">Flagged{log.flagged > 1 ? ` (${log.flagged})` : ""}</Badge>
                    ) : null}
                  </PersonNameCell>
                  <td className={clsx(wordWrapTdClasses, "min-w-[7rem]")}>{log.character}</td>
                  <td className={clsx(wordWrapTdClasses, "min-w-[7rem]")}>
                    {formatDateTime(log.startTime)}
                  </td>
                  <td className={clsx(wordWrapTdClasses, "min-w-[7rem]")}>
                    {formatDateTime(log.lastMessageAt)}
                  </td>
                  <td className={clsx(tdClasses, "tabular-nums")}>
                    {formatDuration(log.duration)}
                  </td>
                  <td className={clsx(tdClasses, "tabular-nums")}>{log.messageCount}</td>
                  <td className={tdClasses}>
                    <Badge tone={log.plan === "premium" ? "brand" : "grey"}>
                      {log.plan === "premium" ? "Premium" : "Standard"}
                    </Badge>
                  </td>
                  <td className={clsx(tdClasses, "tabular-nums")}>{log.calls}</td>
                </tr>
              ))}
            </PagedTable>
            {!logs.isPending && rows.length === 0 && (
              <TableEmptyMessage>No chat logs found</TableEmptyMessage>
            )}
            <ListPager
              pagination={pagination}
              page={params.page}
              disabled={logs.isFetching}
              onPage={(page) => update({ page })}
              noun="conversations"
            />
          </>
        )}
      </Card>

      <ConversationDialog log={open} onClose={() => setOpen(null)} />
    </div>
  );
}
