import type { UseQueryResult } from "@tanstack/react-query";
import { Download, RotateCw } from "lucide-react";
import { type ReactElement, type ReactNode, useEffect, useState } from "react";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { getAdminToken } from "@/lib/storage";
import { ADMIN_TRANSACTIONS_PAGE_SIZE } from "../api/transactions";
import { type CsvExport, exportAllCsv, exportCsv } from "./csv-export";
import { ScreenHeader } from "./screen-header";
import {
  type ListAnswer,
  type TransactionColumn,
  type TransactionList,
  TransactionTable,
} from "./transaction-table";

export const AUTH_ERROR_TEXT = "Authentication Error: Please log in again to continue.";

/** Whether an admin token is stored; without one the screens ask nothing (admin-side spec, 5). */
export function hasAdminToken(): boolean {
  return getAdminToken() !== null;
}

/** The screens' useListParams options: the page size (admin-side spec, 9) stays out of the URL. */
export const TRANSACTION_LIST_OPTIONS = { fixed: { limit: ADMIN_TRANSACTIONS_PAGE_SIZE } };

/**
 * The frame of the admin transaction screens: title, Refresh, Export CSV (the page) and Export
 * all (every row of the filters, from the server), optional revenue cards, the filters, and the
 * transactions table.
 */
export function TransactionsScreen<Row extends { _id: string }, F extends string>({
  title,
  description,
  top,
  filters,
  columns,
  list,
  query,
  emptyMessage,
  failedMessage,
  csv,
  authorised,
}: {
  title: string;
  description: string;
  top?: ReactNode;
  filters: ReactNode;
  columns: readonly TransactionColumn<Row, F>[];
  list: TransactionList<F>;
  query: UseQueryResult<ListAnswer<Row>>;
  emptyMessage: string;
  /** The failure toast: a fixed text, or one made from the error (the server's text). */
  failedMessage: string | ((error: unknown) => ReactElement);
  csv: CsvExport<Row>;
  authorised: boolean;
}) {
  useDocumentTitle(`${title} · Twinline Admin`);
  const [exporting, setExporting] = useState(false);
  useEffect(() => {
    if (!query.isError) return;
    const message = typeof failedMessage === "string" ? failedMessage : failedMessage(query.error);
    toast.error(message, { id: `${title}-failed` });
  }, [query.isError, query.error, failedMessage, title]);

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

  // A failed load clears the list (admin-side spec, section 8).
  const rows = query.isError ? [] : (query.data?.data ?? []);
  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <ScreenHeader title={title} description={description}>
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
          onClick={() => exportCsv(csv, rows)}
          disabled={rows.length === 0}
          className={buttonClasses("primary", "md")}
        >
          <Download aria-hidden="true" className="size-4" />
          Export CSV
        </button>
        <button
          type="button"
          onClick={async () => {
            setExporting(true);
            try {
              await exportAllCsv(csv, list.params);
            } finally {
              setExporting(false);
            }
          }}
          disabled={exporting}
          aria-busy={exporting}
          className={buttonClasses("secondary", "md")}
        >
          <Download aria-hidden="true" className="size-4" />
          Export all
        </button>
      </ScreenHeader>
      {top}
      {filters}
      <TransactionTable
        caption={title}
        columns={columns}
        list={list}
        query={query}
        rows={rows}
        emptyMessage={emptyMessage}
      />
    </div>
  );
}
