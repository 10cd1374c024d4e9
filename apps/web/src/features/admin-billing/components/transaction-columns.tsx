import { PaidAmount } from "@/components/ui/money-figure";
import { TransactionStatusBadge } from "@/components/ui/transaction-status-badge";
import { formatDateTime } from "@/lib/format";
import { PaymentDetailsButton } from "./payment-details-dialog";
import type { TransactionColumn } from "./transaction-table";
import { Truncated, UserCell } from "./ui";

/**
 * The columns the transaction screens share: the same header, sort field and cell wherever they
 * stand. A column of a screen's own stays with the screen.
 */

/** When it happened, to the minute. */
export function dateColumn<Row, F extends string>(
  sortBy: F,
  date: (row: Row) => string | null,
): TransactionColumn<Row, F> {
  return { label: "Date", sortBy, cell: (r) => formatDateTime(date(r), "N/A") };
}

/** Text that stays on one line, cut with an ellipsis (whole in its tooltip); N/A when missing. */
export function truncatedColumn<Row, F extends string>(
  label: string,
  sortBy: F,
  text: (row: Row) => string | null | undefined,
  cellClassName?: string,
): TransactionColumn<Row, F> {
  return {
    label,
    sortBy,
    ...(cellClassName ? { cellClassName } : {}),
    cell: (r) => <Truncated text={text(r) ?? "N/A"} className="max-w-32" />,
  };
}

/** The payment's id at the provider, in a typewriter face. */
export function transactionIdColumn<Row, F extends string>(
  sortBy: F,
  id: (row: Row) => string | null | undefined,
): TransactionColumn<Row, F> {
  return truncatedColumn("Transaction ID", sortBy, id, "font-mono text-xs");
}

type UserOf = Parameters<typeof UserCell>[0]["user"];

export const userColumn: TransactionColumn<{ userId: UserOf }, "user"> = {
  label: "User",
  sortBy: "user",
  cell: (r) => <UserCell user={r.userId} />,
};

export const amountColumn: TransactionColumn<
  { amount: number; currency: string; discount?: number; promotionCode?: string | null },
  "amount"
> = {
  label: "Amount",
  sortBy: "amount",
  cellClassName: "tabular-nums",
  cell: (r) => <PaidAmount payment={r} />,
};

/**
 * A payment's status badge, the failure's reason in its tooltip, and under it the link to the
 * payment's details (its consent at checkout, refunds, withdrawal: issue 26), so the table keeps
 * its width.
 */
export const paymentStatusColumn: TransactionColumn<
  {
    _id: string;
    status: string;
    failureReason?: string | null;
    amount: number;
    refundedAmount: number;
    currency: string;
  },
  "status"
> = {
  label: "Status",
  sortBy: "status",
  cell: (r) => (
    <span className="inline-flex flex-col items-start gap-1">
      <TransactionStatusBadge status={r.status} reason={r.failureReason} payment={r} />
      <PaymentDetailsButton paymentId={r._id} />
    </span>
  ),
};
