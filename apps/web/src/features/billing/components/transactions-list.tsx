import { useQuery } from "@tanstack/react-query";
import { type UserTransaction as Transaction, withdrawalDeadline } from "@twinline/contracts";
import { RotateCw } from "lucide-react";
import { useState } from "react";
import toast from "react-hot-toast";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/load-states";
import { PaidAmount } from "@/components/ui/money-figure";
import { Pager } from "@/components/ui/pager";
import { Skeleton } from "@/components/ui/skeleton";
import { tdClasses, thClasses } from "@/components/ui/sortable-header";
import { TableScroll } from "@/components/ui/table-scroll";
import { RefundedNote } from "@/components/ui/transaction-status-badge";
import { formatCount, formatDate } from "@/lib/format";
import { type HistoryKind, paymentHistoryQuery } from "../api/billing";
import { capitalise, statusTone } from "../api/format";
import { WithdrawDialog } from "./withdraw-dialog";

type Kind = HistoryKind;

const COLUMNS: Record<Kind, string[]> = {
  credits: ["Date", "Package", "Credits", "Amount", "Status"],
  subscriptions: ["Date", "Plan", "Amount", "Status", "Invoice"],
};

const EMPTY: Record<Kind, string> = {
  credits: "No credit purchases yet.",
  subscriptions: "No subscription payments yet.",
};

/**
 * Whether the Withdraw button shows: a paid purchase of the last 14 days not withdrawn yet (the
 * server decides; a plan's older period, or credits all used, are refused with the reason).
 */
const mayWithdraw = (row: Transaction, now: number) =>
  row.status === "success" &&
  row.amount > 0 &&
  !row.withdrawnAt &&
  now <= withdrawalDeadline(row.transactionDate).getTime();

function WithdrawalCell({ row, onWithdraw }: { row: Transaction; onWithdraw: () => void }) {
  if (row.withdrawnAt) {
    return <span className="text-sm text-stone-600 dark:text-stone-400">Withdrawn</span>;
  }
  if (!mayWithdraw(row, Date.now())) {
    return (
      <>
        <span aria-hidden="true">—</span>
        <span className="sr-only">Not available</span>
      </>
    );
  }
  return (
    <button
      type="button"
      onClick={onWithdraw}
      aria-label={`Withdraw from ${row.metadata.packageName ?? row.planName ?? "this purchase"}`}
      className={buttonClasses("secondary", "sm")}
    >
      Withdraw
    </button>
  );
}

function cells(kind: Kind, row: Transaction) {
  const status = (
    <span className="inline-flex flex-col items-start gap-1">
      <Badge tone={statusTone(row.status)}>{capitalise(row.status)}</Badge>
      <RefundedNote payment={row} />
    </span>
  );
  const amount = <PaidAmount payment={row} />;
  return kind === "credits"
    ? [
        formatDate(row.transactionDate),
        row.metadata.packageName ?? "Credits",
        formatCount(row.credits),
        amount,
        status,
      ]
    : [
        formatDate(row.transactionDate),
        row.planName ?? "Subscription",
        amount,
        status,
        row.metadata.invoiceNumber ?? "—",
      ];
}

/**
 * One kind of the user's payments, paged on the server, with its own Refresh button:
 * credit purchases (GET /api/payments/history) or subscription payments
 * (GET /api/payments/subscription-history).
 */
export function TransactionsList({
  kind,
  pageSize,
  errorMessage,
  title,
  withdrawals = false,
}: {
  kind: Kind;
  pageSize: number;
  errorMessage: string;
  title: string;
  /** A Withdraw button on each purchase of the last 14 days (the transactions page). */
  withdrawals?: boolean;
}) {
  const [page, setPage] = useState(1);
  const [withdrawing, setWithdrawing] = useState<Transaction | null>(null);
  const query = useQuery(paymentHistoryQuery(kind, page, pageSize));
  const rows = query.data?.transactions ?? [];
  const pages = query.data?.pagination.pages ?? 1;
  const columns = withdrawals ? [...COLUMNS[kind], "Withdrawal"] : COLUMNS[kind];

  return (
    <div data-testid={`${kind}-transactions`}>
      <div className="flex items-center justify-between gap-3 border-b border-stone-200 px-4 py-3 dark:border-white/10">
        <h2 className="font-display text-base font-semibold text-stone-900 dark:text-white">
          {title}
        </h2>
        <button
          type="button"
          onClick={async () => {
            // A failed refresh keeps the rows shown; the fan is told they may be out of date.
            const result = await query.refetch();
            if (result.isError) toast.error(errorMessage, { id: `refresh-${kind}` });
          }}
          disabled={query.isFetching}
          className={buttonClasses("secondary", "sm")}
        >
          <RotateCw
            aria-hidden="true"
            className={query.isFetching ? "size-4 animate-spin" : "size-4"}
          />
          Refresh
        </button>
      </div>
      {query.isError && query.data ? (
        <p
          role="alert"
          className="border-b border-stone-200 bg-red-50 px-4 py-2 text-sm text-red-800 dark:border-white/10 dark:bg-red-500/10 dark:text-red-200"
        >
          {errorMessage}. The list below may be out of date.
        </p>
      ) : null}
      {query.isError && !query.data ? (
        <ErrorState layout="inline" message={errorMessage} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <TableScroll label={title}>
            <table
              className="min-w-full divide-y divide-stone-200 dark:divide-white/10"
              aria-busy={query.isFetching}
            >
              <caption className="sr-only">{title}</caption>
              <thead className="bg-stone-50 dark:bg-white/[0.03]">
                <tr>
                  {columns.map((label) => (
                    <th key={label} scope="col" className={thClasses}>
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100 dark:divide-white/5">
                {query.isPending &&
                  Array.from({ length: 3 }, (_, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholder rows
                    <tr key={i} data-testid="skeleton-row">
                      {columns.map((label) => (
                        <td key={label} className={tdClasses}>
                          <Skeleton className="h-4 w-16" />
                        </td>
                      ))}
                    </tr>
                  ))}
                {rows.map((row) => (
                  <tr key={row._id}>
                    {[
                      ...cells(kind, row),
                      ...(withdrawals
                        ? [
                            <WithdrawalCell
                              key="withdrawal"
                              row={row}
                              onWithdraw={() => setWithdrawing(row)}
                            />,
                          ]
                        : []),
                    ].map((cell, i) => (
                      <td key={columns[i]} className={tdClasses}>
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          {!query.isPending && rows.length === 0 && (
            <p className="px-4 py-10 text-center text-sm text-stone-600 dark:text-stone-400">
              {EMPTY[kind]}
            </p>
          )}
          {pages > 1 && (
            <Pager page={page} pages={pages} onPage={setPage} disabled={query.isFetching} />
          )}
        </>
      )}
      {withdrawing ? (
        <WithdrawDialog payment={withdrawing} onClose={() => setWithdrawing(null)} />
      ) : null}
    </div>
  );
}
