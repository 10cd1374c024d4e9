import { useQuery } from "@tanstack/react-query";
import {
  type AdminSubscriptionTransaction,
  adminSubscriptionTransactionsQuerySchema,
  routes,
  type SUBSCRIPTION_TRANSACTION_SORT_FIELDS,
  SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS,
  subscriptionTransactionCsvRow,
} from "@twinline/contracts";
import { useListParams } from "@/hooks/use-list-params";
import { ApiError, errorMessage } from "@/lib/api-client";
import { subscriptionTransactionsQuery } from "../api/transactions";
import type { CsvExport } from "./csv-export";
import { FiltersForm, PAYMENT_FILTERS } from "./filters";
import {
  amountColumn,
  dateColumn,
  paymentStatusColumn,
  transactionIdColumn,
  truncatedColumn,
  userColumn,
} from "./transaction-columns";
import type { TransactionColumn } from "./transaction-table";
import { hasAdminToken, TRANSACTION_LIST_OPTIONS, TransactionsScreen } from "./transactions-screen";
import { RevenueCards } from "./ui";

type Row = AdminSubscriptionTransaction;

const COLUMNS: TransactionColumn<Row, (typeof SUBSCRIPTION_TRANSACTION_SORT_FIELDS)[number]>[] = [
  dateColumn("transactionDate", (r) => r.transactionDate),
  userColumn,
  truncatedColumn("Subscription Plan", "planName", (r) => r.planId?.name ?? r.planName),
  amountColumn,
  paymentStatusColumn,
  transactionIdColumn("stripePaymentId", (r) => r.stripePaymentId ?? r.invoiceId),
];

const CSV: CsvExport<Row> = {
  fileName: "subscription-transactions",
  all: routes.adminBilling.subscriptionTransactionsExport,
  columns: SUBSCRIPTION_TRANSACTIONS_CSV_COLUMNS,
  row: subscriptionTransactionCsvRow,
  done: "Export Complete",
  failed: "Failed to export subscription transactions",
};

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
  const list = useListParams(adminSubscriptionTransactionsQuerySchema, TRANSACTION_LIST_OPTIONS);
  const query = useQuery(subscriptionTransactionsQuery(list.params, authorised));
  return (
    <TransactionsScreen
      authorised={authorised}
      title="Subscription Transactions"
      description="Every subscription payment, newest first."
      top={<RevenueCards kind="subscriptions" />}
      filters={
        <FiltersForm
          list={list}
          schema={adminSubscriptionTransactionsQuerySchema}
          {...PAYMENT_FILTERS}
        />
      }
      columns={COLUMNS}
      list={list}
      query={query}
      emptyMessage="No subscription transactions found"
      failedMessage={failedToast}
      csv={CSV}
    />
  );
}
