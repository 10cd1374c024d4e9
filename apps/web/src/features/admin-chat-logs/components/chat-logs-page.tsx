import { useQuery } from "@tanstack/react-query";
import { type ChatLog, chatLogsQuerySchema } from "@twinline/contracts";
import { clsx } from "clsx";
import { Download, LoaderCircle } from "lucide-react";
import { useEffect, useId, useMemo, useState } from "react";
import toast from "react-hot-toast";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/load-states";
import { PageHeader } from "@/components/ui/page-header";
import { PagedTable, type TableColumn, usePageRange } from "@/components/ui/paged-table";
import { Pager } from "@/components/ui/pager";
import { SearchBox, useDebouncedSearch } from "@/components/ui/search-box";
import { tdClasses, wrapTdClasses } from "@/components/ui/sortable-header";
import { UserAvatar } from "@/components/ui/user-avatar";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useListParams } from "@/hooks/use-list-params";
import { csvFileName, downloadFile } from "@/lib/csv";
import { formatDateTime, formatDuration } from "@/lib/format";
import {
  CHAT_LOGS_PAGE_SIZE,
  type ChatLogChannel,
  type ChatLogPlan,
  type ChatLogSortField,
  type ChatLogsParams,
  chatLogsQuery,
  exportChatLogs,
} from "../api/chat-logs";
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

const inputClasses =
  "h-10 w-full rounded-xl border border-stone-300 bg-white px-3 text-sm text-stone-900 focus:border-brand-500 focus:outline-2 focus:outline-offset-0 focus:outline-brand-500/30 dark:border-white/15 dark:bg-stone-950 dark:text-white dark:[color-scheme:dark]";

/** What the address never carries: the page size. */
const FIXED = { limit: CHAT_LOGS_PAGE_SIZE };

/** /admin/chat-logs: real conversations, searched, filtered by plan and dates, sorted, paged, exported. */
export function AdminChatLogsPage() {
  const ids = {
    search: useId(),
    plan: useId(),
    channel: useId(),
    start: useId(),
    end: useId(),
  };
  // Page, filters and sort live in the address, read through the contract's query schema.
  const list = useListParams(chatLogsQuerySchema, { fixed: FIXED });
  const { update, filter, sort, reset, defaults } = list;
  const params = useMemo<ChatLogsParams>(
    () => ({
      page: list.params.page,
      search: list.params.search ?? "",
      plan: list.params.plan,
      channel: list.params.channel,
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
  const { first, last } = usePageRange(pagination, params.page, (page) => update({ page }));

  const filtered =
    params.search !== "" ||
    params.plan !== defaults.plan ||
    params.channel !== defaults.channel ||
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
        <div className="grid gap-3 border-b border-stone-200 p-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))_auto] lg:items-end dark:border-white/10">
          <div className="sm:col-span-2 lg:col-span-1">
            <label
              htmlFor={ids.search}
              className="mb-1 block text-xs font-medium text-stone-600 dark:text-stone-400"
            >
              Search
            </label>
            <SearchBox
              id={ids.search}
              value={searchText}
              onChange={setSearchText}
              placeholder="User name or email"
              inputClassName={clsx(
                inputClasses,
                "pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden",
              )}
            />
          </div>
          <div>
            <label
              htmlFor={ids.plan}
              className="mb-1 block text-xs font-medium text-stone-600 dark:text-stone-400"
            >
              Plan
            </label>
            <select
              id={ids.plan}
              value={params.plan}
              onChange={(event) => filter({ plan: event.target.value as ChatLogPlan })}
              className={inputClasses}
            >
              <option value="all">All plans</option>
              <option value="premium">Premium</option>
              <option value="standard">Standard</option>
            </select>
          </div>
          <div>
            <label
              htmlFor={ids.channel}
              className="mb-1 block text-xs font-medium text-stone-600 dark:text-stone-400"
            >
              Type
            </label>
            <select
              id={ids.channel}
              value={params.channel}
              onChange={(event) => filter({ channel: event.target.value as ChatLogChannel })}
              className={inputClasses}
            >
              <option value="all">Chats and calls</option>
              <option value="call">With voice calls</option>
              <option value="chat">Chat only</option>
            </select>
          </div>
          <div>
            <label
              htmlFor={ids.start}
              className="mb-1 block text-xs font-medium text-stone-600 dark:text-stone-400"
            >
              From
            </label>
            <input
              id={ids.start}
              type="date"
              value={params.startDate}
              max={params.endDate || undefined}
              onChange={(event) => filter({ startDate: event.target.value })}
              className={inputClasses}
            />
          </div>
          <div>
            <label
              htmlFor={ids.end}
              className="mb-1 block text-xs font-medium text-stone-600 dark:text-stone-400"
            >
              To
            </label>
            <input
              id={ids.end}
              type="date"
              value={params.endDate}
              min={params.startDate || undefined}
              onChange={(event) => filter({ endDate: event.target.value })}
              className={inputClasses}
            />
          </div>
          <button
            type="button"
            onClick={() => {
              setSearchText("");
              reset();
            }}
            disabled={!filtered}
            className={buttonClasses("ghost", "sm", "h-10 justify-self-start")}
          >
            Reset filters
          </button>
        </div>

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
                  <td className={clsx(wrapTdClasses, "min-w-[12rem]")}>
                    <div className="flex items-center gap-3">
                      <UserAvatar
                        name={log.user.name}
                        email={log.user.email}
                        image={log.user.profileImage}
                      />
                      <div className="min-w-0">
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
                          {log.user.email}
                        </p>
                      </div>
                    </div>
                  </td>
                  <td className={clsx(wrapTdClasses, "min-w-[7rem]")}>{log.character}</td>
                  <td className={clsx(wrapTdClasses, "min-w-[7rem]")}>
                    {formatDateTime(log.startTime)}
                  </td>
                  <td className={clsx(wrapTdClasses, "min-w-[7rem]")}>
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
              <p className="px-4 py-12 text-center text-sm text-stone-600 dark:text-stone-400">
                No chat logs found
              </p>
            )}
            <Pager
              page={params.page}
              pages={pagination?.pages ?? 1}
              disabled={logs.isFetching}
              onPage={(page) => update({ page })}
              summary={
                pagination
                  ? pagination.total > 0
                    ? `Showing ${first} to ${last} of ${pagination.total} conversations`
                    : "Showing 0 conversations"
                  : undefined
              }
            />
          </>
        )}
      </Card>

      <ConversationDialog log={open} onClose={() => setOpen(null)} />
    </div>
  );
}
