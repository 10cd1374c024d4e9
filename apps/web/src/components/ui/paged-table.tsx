import type { Pagination } from "@twinline/contracts";
import { clsx } from "clsx";
import { type ReactNode, useEffect, useRef } from "react";
import { Skeleton } from "./skeleton";
import { SortableHeader, tdClasses, thClasses } from "./sortable-header";
import { TableScroll } from "./table-scroll";

export interface TableColumn<F extends string> {
  label: string;
  /** The field this column sorts by; without it the header does not sort. */
  sortBy?: F;
  className?: string;
}

/** The header row of a server-sorted table: sortable columns carry aria-sort and a button. */
function TableHeadRow<F extends string>({
  columns,
  sortBy,
  sortOrder,
  onSort,
}: {
  columns: readonly TableColumn<F>[];
  sortBy: F;
  sortOrder: 1 | -1;
  onSort: (field: F) => void;
}) {
  return (
    <tr>
      {columns.map((column) => {
        const field = column.sortBy;
        return field ? (
          <SortableHeader
            key={column.label}
            label={column.label}
            direction={sortBy === field ? (sortOrder === 1 ? "ascending" : "descending") : null}
            onSort={() => onSort(field)}
          />
        ) : (
          <th key={column.label} scope="col" className={clsx(thClasses, column.className)}>
            {column.label}
          </th>
        );
      })}
    </tr>
  );
}

/** Placeholder rows while the first page loads. */
function SkeletonRows({
  columns,
  count = 5,
}: {
  columns: readonly { label: string }[];
  count?: number;
}) {
  return Array.from({ length: count }, (_, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholder rows
    <tr key={i} data-testid="skeleton-row">
      {columns.map((column) => (
        <td key={column.label} className={tdClasses}>
          <Skeleton className="h-4 w-20" />
        </td>
      ))}
    </tr>
  ));
}

/**
 * A server-sorted, paged table: scrolls sideways on narrow screens, is aria-busy while fetching,
 * shows placeholder rows while the first page loads and dims the rows of the previous page.
 */
export function PagedTable<F extends string>({
  caption,
  columns,
  sortBy,
  sortOrder,
  onSort,
  pending,
  fetching,
  placeholder,
  scrollTestId,
  children,
}: {
  caption: string;
  columns: readonly TableColumn<F>[];
  sortBy: F;
  sortOrder: 1 | -1;
  onSort: (field: F) => void;
  /** The first page is loading. */
  pending: boolean;
  fetching: boolean;
  /** The rows shown are the previous page's while the next one loads. */
  placeholder: boolean;
  scrollTestId?: string;
  children: ReactNode;
}) {
  return (
    <TableScroll label={caption} testId={scrollTestId}>
      <table
        className="min-w-full divide-y divide-stone-200 dark:divide-white/10"
        aria-busy={fetching}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-stone-50 dark:bg-white/[0.03]">
          <TableHeadRow columns={columns} sortBy={sortBy} sortOrder={sortOrder} onSort={onSort} />
        </thead>
        <tbody
          className={clsx(
            "divide-y divide-stone-100 transition-opacity dark:divide-white/5",
            placeholder && "opacity-60",
          )}
        >
          {pending && <SkeletonRows columns={columns} />}
          {children}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * The rows a page shows (1-based, 0 and 0 when there are none); a page past the end (e.g. after
 * a search shrank the list) goes back to the last one.
 */
export function usePageRange(
  pagination: Pagination | undefined,
  page: number,
  goTo: (page: number) => void,
) {
  const latest = useRef(goTo);
  latest.current = goTo;
  useEffect(() => {
    if (pagination && pagination.pages > 0 && page > pagination.pages) {
      latest.current(pagination.pages);
    }
  }, [pagination, page]);
  const first =
    pagination && pagination.total > 0 ? (pagination.page - 1) * pagination.limit + 1 : 0;
  const last = pagination ? Math.min(pagination.page * pagination.limit, pagination.total) : 0;
  return { first, last };
}

/** What a table says when it has no rows: under it, so it stays centred on narrow screens. */
export function TableEmptyMessage({ children }: { children: ReactNode }) {
  return (
    <p className="px-4 py-12 text-center text-sm text-stone-600 dark:text-stone-400">{children}</p>
  );
}
