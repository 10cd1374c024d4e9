import type { UseQueryResult } from "@tanstack/react-query";
import { clsx } from "clsx";
import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import {
  PagedTable,
  type TableColumn,
  TableEmptyMessage,
  usePageRange,
} from "@/components/ui/paged-table";
import { Pager } from "@/components/ui/pager";
import { wordWrapTdClasses } from "@/components/ui/sortable-header";
import { formatCount } from "@/lib/format";

/** A column of a transaction table: its header (and sort field) and what a row shows in it. */
export interface TransactionColumn<Row, F extends string> extends TableColumn<F> {
  cell: (row: Row) => ReactNode;
  /** Added to the cell's classes. */
  cellClassName?: string;
}

/** The sort and page of a transaction screen, kept in the address by its useListParams. */
export interface TransactionList<F extends string> {
  /** The list's query: sort, page and the filters (Export all sends them to the server). */
  params: { sortBy: F; sortOrder: 1 | -1; page: number } & Record<string, unknown>;
  sort: (field: F) => void;
  update: (patch: { page: number }) => void;
}

export interface ListAnswer<Row> {
  data: Row[];
  pagination: { total: number; page: number; limit: number; pages: number };
}

/**
 * The "Transactions" card: "Showing N of total transactions", the server-sorted table with its
 * 5 skeleton rows, the empty text and the pager (shown only with more than one page).
 */
export function TransactionTable<Row extends { _id: string }, F extends string>({
  caption,
  columns,
  list,
  query,
  rows,
  emptyMessage,
}: {
  caption: string;
  columns: readonly TransactionColumn<Row, F>[];
  list: TransactionList<F>;
  query: UseQueryResult<ListAnswer<Row>>;
  /** The rows on screen: none after a failed load (admin-side spec, section 8). */
  rows: readonly Row[];
  emptyMessage: string;
}) {
  const pagination = query.data?.pagination;
  const goTo = (page: number) => list.update({ page });
  usePageRange(pagination, list.params.page, goTo);

  return (
    <Card className="overflow-hidden">
      <div className="border-b border-stone-200 px-4 py-3 dark:border-white/10">
        <h2 className="font-display text-lg font-semibold text-stone-900 dark:text-white">
          Transactions
        </h2>
        <p className="text-sm text-stone-600 dark:text-stone-400" data-testid="showing">
          Showing {formatCount(rows.length)} of {formatCount(pagination?.total ?? 0)} transactions
        </p>
      </div>
      <PagedTable
        caption={caption}
        columns={columns}
        sortBy={list.params.sortBy}
        sortOrder={list.params.sortOrder}
        onSort={list.sort}
        pending={query.isPending}
        fetching={query.isFetching}
        placeholder={query.isPlaceholderData}
      >
        {rows.map((row) => (
          <tr key={row._id}>
            {columns.map((column) => (
              <td key={column.label} className={clsx(wordWrapTdClasses, column.cellClassName)}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </PagedTable>
      {!query.isPending && rows.length === 0 && (
        <TableEmptyMessage>{emptyMessage}</TableEmptyMessage>
      )}
      {pagination && pagination.pages > 1 && (
        <Pager
          page={list.params.page}
          pages={pagination.pages}
          onPage={goTo}
          disabled={query.isFetching}
        />
      )}
    </Card>
  );
}
