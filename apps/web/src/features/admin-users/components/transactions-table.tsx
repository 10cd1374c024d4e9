import { clsx } from "clsx";
import { Search } from "lucide-react";
import { type ReactNode, useId, useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Pager } from "@/components/ui/pager";
import { Skeleton } from "@/components/ui/skeleton";
import { SortableHeader, tdClasses } from "@/components/ui/sortable-header";

/** Page size of the user transaction tables (admin-side spec, section 9). */
export const TRANSACTIONS_PAGE_SIZE = 10;

export interface TransactionColumn<T> {
  label: string;
  value: (row: T) => string | number;
  render?: (row: T) => ReactNode;
}

interface TransactionsTableProps<T extends { _id: string }> {
  title: string;
  rows: T[];
  isPending: boolean;
  columns: TransactionColumn<T>[];
  /** Whether a row matches the search text (lower case). */
  matches: (row: T, search: string) => boolean;
  searchLabel: string;
  emptyMessage: string;
  noMatchMessage: string;
}

/** Success green, pending yellow, anything else red; shown capitalised (admin-side spec, section 4). */
export function TransactionStatusBadge({ status }: { status: string }) {
  const tone =
    status === "success" || status === "credited"
      ? "green"
      : status === "pending"
        ? "yellow"
        : "red";
  const label = status ? `${status[0]?.toUpperCase()}${status.slice(1)}` : "Unknown";
  return <Badge tone={tone}>{label}</Badge>;
}

/**
 * A user's transactions: a search box, sortable columns (newest first by default) and
 * Previous/Next paging with "Page X of N", shown only when there is more than one page.
 */
export function TransactionsTable<T extends { _id: string }>({
  title,
  rows,
  isPending,
  columns,
  matches,
  searchLabel,
  emptyMessage,
  noMatchMessage,
}: TransactionsTableProps<T>) {
  const searchId = useId();
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<{ column: number; ascending: boolean }>({
    column: 0,
    ascending: false,
  });
  const [page, setPage] = useState(1);

  const visible = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const filtered = needle ? rows.filter((row) => matches(row, needle)) : rows;
    const column = columns[sort.column];
    if (!column) return filtered;
    return [...filtered].sort((a, b) => {
      const x = column.value(a);
      const y = column.value(b);
      const order = x < y ? -1 : x > y ? 1 : 0;
      return sort.ascending ? order : -order;
    });
  }, [rows, search, sort, columns, matches]);

  const pages = Math.max(1, Math.ceil(visible.length / TRANSACTIONS_PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = visible.slice(
    (current - 1) * TRANSACTIONS_PAGE_SIZE,
    current * TRANSACTIONS_PAGE_SIZE,
  );

  return (
    <div>
      <div className="flex flex-col gap-3 border-b border-stone-200 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-white/10">
        <h2 className="font-display text-lg font-semibold text-stone-900 dark:text-white">
          {title}
        </h2>
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
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
            placeholder="Search transactions"
            className="h-10 w-full rounded-xl border border-stone-300 bg-white pr-3 pl-9 text-sm text-stone-900 placeholder:text-stone-400 focus:border-brand-500 focus:outline-2 focus:outline-offset-0 focus:outline-brand-500/30 dark:border-white/15 dark:bg-stone-950 dark:text-white dark:placeholder:text-stone-500"
          />
        </div>
      </div>
      <div className="overflow-x-auto">
        <table className="min-w-full divide-y divide-stone-200 dark:divide-white/10">
          <caption className="sr-only">{title}</caption>
          <thead className="bg-stone-50 dark:bg-white/[0.03]">
            <tr>
              {columns.map((column, index) => (
                <SortableHeader
                  key={column.label}
                  label={column.label}
                  direction={
                    sort.column === index ? (sort.ascending ? "ascending" : "descending") : null
                  }
                  onSort={() => {
                    setSort((s) =>
                      s.column === index
                        ? { column: index, ascending: !s.ascending }
                        : { column: index, ascending: false },
                    );
                    setPage(1);
                  }}
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
                    {column.render ? column.render(row) : column.value(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!isPending && shown.length === 0 && (
        // Outside the scrolling table, so it stays centred in the card on narrow screens.
        <p className="px-4 py-12 text-center text-sm text-stone-600 dark:text-stone-400">
          {search.trim() && rows.length > 0 ? noMatchMessage : emptyMessage}
        </p>
      )}
      {pages > 1 && <Pager page={current} pages={pages} onPage={setPage} />}
    </div>
  );
}
