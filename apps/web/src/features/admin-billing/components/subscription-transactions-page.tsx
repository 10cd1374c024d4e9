import { useQuery } from "@tanstack/react-query";
import {
  type AdminSubscriptionTransaction,
  adminSubscriptionTransactionsQuerySchema,
  type SUBSCRIPTION_TRANSACTION_SORT_FIELDS,
  SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS,
} from "@twinline/contracts";
import toast from "react-hot-toast";
import type { TableColumn } from "@/components/ui/paged-table";
import { tdClasses } from "@/components/ui/sortable-header";
import { useListParams } from "@/hooks/use-list-params";
import { ApiError, errorMessage } from "@/lib/api-client";
import { formatMoney } from "@/lib/money";
import { csvFileName, downloadCsv, toCsv } from "../api/csv";
import { ADMIN_TRANSACTIONS_PAGE_SIZE, subscriptionTransactionsQuery } from "../api/transactions";
import { FiltersForm, TRANSACTION_STATUSES } from "./filters";
import { hasAdminToken, TransactionsScreen } from "./transactions-screen";
import { formatDateTime, RevenueCards, TransactionStatusBadge, UserCell } from "./ui";

const FIXED = { limit: ADMIN_TRANSACTIONS_PAGE_SIZE };

const COLUMNS: TableColumn<(typeof SUBSCRIPTION_TRANSACTION_SORT_FIELDS)[number]>[] = [
  { label: "Date", sortBy: "transactionDate" },
  { label: "User", sortBy: "user" },
  { label: "Subscription Plan", sortBy: "planName" },
  { label: "Amount", sortBy: "amount" },
  { label: "Status", sortBy: "status" },
  { label: "Transaction ID", sortBy: "stripePaymentId" },
];

const planOf = (r: AdminSubscriptionTransaction) => r.planId?.name ?? r.planName ?? null;
const idOf = (r: AdminSubscriptionTransaction) => r.stripePaymentId ?? r.invoiceId ?? null;

export function subscriptionTransactionsCsv(rows: AdminSubscriptionTransaction[]): string {
  return toCsv(
    SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS,
    rows.map((r) => [
      r.transactionDate,
      r.userId?.email,
      r.userId?.name,
      planOf(r),
      r.amount.toFixed(2),
      r.currency.toUpperCase(),
      r.status,
      idOf(r),
    ]),
  );
}

/** "Error" with the server's error text, else "Failed to connect to server" (admin-side 8). */
function failedToast(error: unknown) {
  return (
    <span>
      <strong className="block">Error</strong>
      {error instanceof ApiError && error.kind === "http"
        ? errorMessage(error, "Failed to connect to server")
        : "Failed to connect to server"}
    </span>
  );
}

/** /admin/subscription-transactions (admin-side spec, sections 2 and 7). */
export function AdminSubscriptionTransactionsPage() {
  const authorised = hasAdminToken();
  const { params, update, filter, sort } = useListParams(adminSubscriptionTransactionsQuerySchema, {
    fixed: FIXED,
  });
  const query = useQuery(subscriptionTransactionsQuery(params, authorised));
  return (
    <TransactionsScreen
      authorised={authorised}
      title="Subscription Transactions"
      description="Every subscription payment, newest first."
      top={<RevenueCards kind="subscriptions" />}
      filters={
        <FiltersForm
          values={{
            userId: params.userId ?? "",
            status: params.status ?? "all",
            eventType: "all",
            startDate: params.startDate ?? "",
            endDate: params.endDate ?? "",
          }}
          textLabel="User ID/Email"
          statuses={TRANSACTION_STATUSES}
          submitLabel="Search"
          onApply={(f) =>
            filter({
              userId: f.userId || undefined,
              status: adminSubscriptionTransactionsQuerySchema.shape.status
                .catch("all")
                .parse(f.status),
              startDate: f.startDate || undefined,
              endDate: f.endDate || undefined,
            })
          }
        />
      }
      columns={COLUMNS}
      sortBy={params.sortBy}
      sortOrder={params.sortOrder}
      onSort={sort}
      query={query}
      page={params.page}
      onPage={(page) => update({ page })}
      emptyMessage="No subscription transactions found"
      failedMessage={failedToast}
      onExport={(rows) => {
        try {
          downloadCsv.save(
            csvFileName("subscription-transactions"),
            subscriptionTransactionsCsv(rows),
          );
          toast.success("Export Complete");
        } catch {
          toast.error("Failed to export subscription transactions");
        }
      }}
      renderRow={(r) => (
        <tr key={r._id}>
          <td className={tdClasses}>{formatDateTime(r.transactionDate)}</td>
          <td className={tdClasses}>
            <UserCell user={r.userId} />
          </td>
          <td className={tdClasses}>{planOf(r) ?? "N/A"}</td>
          <td className={`${tdClasses} tabular-nums`}>{formatMoney(r.amount, r.currency)}</td>
          <td className={tdClasses}>
            <TransactionStatusBadge status={r.status} />
          </td>
          <td className={`${tdClasses} font-mono text-xs`}>{idOf(r) ?? "N/A"}</td>
        </tr>
      )}
    />
  );
}
