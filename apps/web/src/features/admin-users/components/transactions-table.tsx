import type { AdminUserTransactionSortField } from "@twinline/contracts";
import { clsx } from "clsx";
import { Search } from "lucide-react";
import { type ReactNode, useEffect, useId, useState } from "react";
import { TableEmptyMessage } from "@/components/ui/paged-table";
import { Pager } from "@/components/ui/pager";
import { Skeleton } from "@/components/ui/skeleton";
import { SortableHeader, tdClasses } from "@/components/ui/sortable-header";
import { TableScroll } from "@/components/ui/table-scroll";
import { TableToolbar } from "@/components/ui/table-toolbar";
import type { UserTransactionsParams } from "../api/transactions";
import type { TransactionsState } from "../hooks/use-user-transactions";

/** Page size of the user transaction tables (admin-side spec, section 9). */
export const TRANSACTIONS_PAGE_SIZE = 10;
/** The search asks the server once typing pauses this long. */
const SEARCH_DELAY_MS = 300;

export interface TransactionColumn<T> {
  label: string;
  /** The server's sort field of this column. */
  sortBy: AdminUserTransactionSortField;
  render: (row: T) => ReactNode;
}

/** The first page, newest first, no search. */
export const FIRST_PAGE: UserTransactionsParams = {
  page: 1,
  limit: TRANSACTIONS_PAGE_SIZE,
  sortBy: "transactionDate",
  sortOrder: -1,
  search: "",
};

interface TransactionsTableProps<T extends { _id: string }> {
  title: string;
  /** The page shown, as the server searched, sorted and paged it. */
  state: TransactionsState<T>;
  params: UserTransactionsParams;
  onParams: (params: UserTransactionsParams) => void;
  columns: TransactionColumn<T>[];
  searchLabel: string;
  emptyMessage: string;
  noMatchMessage: string;
}

/**
 * A user's transactions: a search box, sortable columns (newest first by default) and
 * Previous/Next paging with "Page X of N", shown only when there is more than one page. The
 * server searches, sorts and pages, so every transaction is reachable however many there are.
 */
export function TransactionsTable<T extends { _id: string }>({
  title,
  state,
  params,
  onParams,
  columns,
  searchLabel,
  emptyMessage,
  noMatchMessage,
}: TransactionsTableProps<T>) {
  const searchId = useId();
  const [search, setSearch] = useState(params.search);
  useEffect(() => {
    if (search === params.search) return;
    const timer = setTimeout(() => onParams({ ...params, search, page: 1 }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, params, onParams]);
  const { rows, pages, isPending } = state;
  const shown = rows;

  return (
    <div>
      <TableToolbar title={title}>
        <div className="relative w-full sm:max-w-xs">
          <label htmlFor={searchId} className="sr-only">
            {searchLabel}
          </label>
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-400"
          />
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search transactions"
            className="h-10 w-full rounded-xl border border-stone-300 bg-white pr-3 pl-9 text-sm text-stone-900 placeholder:text-stone-400 focus:border-brand-500 focus:outline-2 focus:outline-offset-0 focus:outline-brand-500/30 dark:border-white/15 dark:bg-stone-950 dark:text-white dark:placeholder:text-stone-500"
          />
        </div>
      </TableToolbar>
      <TableScroll label={title}>
        <table className="min-w-full divide-y divide-stone-200 dark:divide-white/10">
          <caption className="sr-only">{title}</caption>
          <thead className="bg-stone-50 dark:bg-white/[0.03]">
            <tr>
              {columns.map((column) => (
                <SortableHeader
                  key={column.label}
                  label={column.label}
                  direction={
                    params.sortBy === column.sortBy
                      ? params.sortOrder === 1
                        ? "ascending"
                        : "descending"
                      : null
                  }
                  onSort={() =>
                    onParams({
                      ...params,
                      sortBy: column.sortBy,
                      sortOrder:
                        params.sortBy === column.sortBy ? (params.sortOrder === 1 ? -1 : 1) : -1,
                      page: 1,
                    })
                  }
                />
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100 dark:divide-white/5">
            {isPending &&
              Array.from({ length: 5 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholder rows
                <tr key={i}>
                  {columns.map((column) => (
                    <td key={column.label} className={tdClasses}>
                      <Skeleton className="h-4 w-20" />
                    </td>
                  ))}
                </tr>
              ))}
            {shown.map((row) => (
              <tr key={row._id}>
                {columns.map((column) => (
                  <td key={column.label} className={clsx(tdClasses)}>
                    {column.render(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {!isPending && shown.length === 0 && (
        <TableEmptyMessage>
          {params.search.trim() ? noMatchMessage : emptyMessage}
        </TableEmptyMessage>
      )}
      {pages > 1 && (
        <Pager
          page={Math.min(params.page, pages)}
          pages={pages}
          onPage={(page) => onParams({ ...params, page })}
        />
      )}
    </div>
  );
}
