import type { UseQueryResult } from "@tanstack/react-query";
import { Download, RotateCw } from "lucide-react";
import { type ReactElement, type ReactNode, useEffect } from "react";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { PagedTable, type TableColumn, usePageRange } from "@/components/ui/paged-table";
import { Pager } from "@/components/ui/pager";
import { getAdminToken } from "@/lib/storage";

export const AUTH_ERROR_TEXT = "Authentication Error: Please log in again to continue.";

/** Whether an admin token is stored; without one the screens ask nothing (admin-side spec, 5). */
export function hasAdminToken(): boolean {
  return getAdminToken() !== null;
}

interface ListAnswer<Row> {
  data: Row[];
  pagination: { total: number; page: number; limit: number; pages: number };
}

/**
 * The frame of the admin transaction screens: title, Refresh and Export CSV, optional revenue
 * cards, the filters, and the server-sorted table with "Showing N of total transactions", its
 * 5 skeleton rows, empty text and pager (shown only with more than one page).
 */
export function TransactionsScreen<Row extends { _id: string }, F extends string>({
  title,
  description,
  top,
  filters,
  columns,
  sortBy,
  sortOrder,
  onSort,
  query,
  page,
  onPage,
  emptyMessage,
  failedMessage,
  renderRow,
  onExport,
  authorised,
}: {
  title: string;
  description: string;
  top?: ReactNode;
  filters: ReactNode;
  columns: readonly TableColumn<F>[];
  sortBy: F;
  sortOrder: 1 | -1;
  onSort: (field: F) => void;
  query: UseQueryResult<ListAnswer<Row>>;
  page: number;
  onPage: (page: number) => void;
  emptyMessage: string;
  /** The failure toast: a fixed text, or one made from the error (the server's text). */
  failedMessage: string | ((error: unknown) => ReactElement);
  renderRow: (row: Row) => ReactNode;
  onExport: (rows: Row[]) => void;
  authorised: boolean;
}) {
  useEffect(() => {
    document.title = `${title} · Twinline Admin`;
  }, [title]);
  useEffect(() => {
    if (!query.isError) return;
    const message = typeof failedMessage === "string" ? failedMessage : failedMessage(query.error);
    toast.error(message, { id: `${title}-failed` });
  }, [query.isError, query.error, failedMessage, title]);

  // A failed load clears the list (admin-side spec, section 8).
  const rows = query.isError ? [] : (query.data?.data ?? []);
  const pagination = query.data?.pagination;
  usePageRange(pagination, page, onPage);

  if (!authorised) {
    return (
      <div className="mx-auto max-w-7xl space-y-6">
        <PageHeader title={title} description={description} />
        <Card className="px-4 py-12 text-center">
          <p role="alert" className="text-red-700 dark:text-red-300">
            {AUTH_ERROR_TEXT}
          </p>
        </Card>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <PageHeader title={title} description={description} />
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            onClick={async () => {
              const result = await query.refetch();
              if (!result.isError) toast.success("Refreshed");
            }}
            disabled={query.isFetching}
            className={buttonClasses("secondary", "md")}
          >
            <RotateCw
              aria-hidden="true"
              className={query.isFetching ? "size-4 animate-spin" : "size-4"}
            />
            Refresh
          </button>
          <button
            type="button"
            onClick={() => onExport(rows)}
            disabled={rows.length === 0}
            className={buttonClasses("primary", "md")}
          >
            <Download aria-hidden="true" className="size-4" />
            Export CSV
          </button>
        </div>
      </div>
      {top}
      {filters}
      <Card className="overflow-hidden">
        <div className="border-b border-stone-200 px-4 py-3 dark:border-white/10">
          <h2 className="font-display text-lg font-semibold text-stone-900 dark:text-white">
            Transactions
          </h2>
          <p className="text-sm text-stone-600 dark:text-stone-400" data-testid="showing">
            Showing {rows.length} of {pagination?.total ?? 0} transactions
          </p>
        </div>
        <PagedTable
          caption={title}
          columns={columns}
          sortBy={sortBy}
          sortOrder={sortOrder}
          onSort={onSort}
          pending={query.isPending}
          fetching={query.isFetching}
          placeholder={query.isPlaceholderData}
        >
          {rows.map(renderRow)}
        </PagedTable>
        {!query.isPending && rows.length === 0 && (
          <p className="px-4 py-12 text-center text-sm text-stone-600 dark:text-stone-400">
            {emptyMessage}
          </p>
        )}
        {pagination && pagination.pages > 1 && (
          <Pager page={page} pages={pagination.pages} onPage={onPage} disabled={query.isFetching} />
        )}
      </Card>
    </div>
  );
}
