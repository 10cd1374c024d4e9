import { useQuery } from "@tanstack/react-query";
import {
  type AdminCreditTransaction,
  adminCreditTransactionsQuerySchema,
  type CREDIT_TRANSACTION_SORT_FIELDS,
  CREDIT_TRANSACTIONS_CSV_COLUMNS,
  creditTransactionCsvRow,
  routes,
} from "@twinline/contracts";
import { useListParams } from "@/hooks/use-list-params";
import { formatCount } from "@/lib/format";
import { creditTransactionsQuery } from "../api/transactions";
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

type Row = AdminCreditTransaction;

const COLUMNS: TransactionColumn<Row, (typeof CREDIT_TRANSACTION_SORT_FIELDS)[number]>[] = [
  dateColumn("transactionDate", (r) => r.transactionDate),
  userColumn,
  {
    label: "Credits",
    sortBy: "credits",
    cellClassName: "tabular-nums",
    cell: (r) => formatCount(r.credits),
  },
  amountColumn,
  paymentStatusColumn,
  truncatedColumn("Package", "packageName", (r) => r.metadata.packageName),
  transactionIdColumn("stripePaymentId", (r) => r.stripePaymentId),
];

const CSV: CsvExport<Row> = {
  fileName: "credit-transactions",
  all: routes.adminBilling.creditTransactionsExport,
  columns: CREDIT_TRANSACTIONS_CSV_COLUMNS,
  row: creditTransactionCsvRow,
  done: "Export Complete",
  failed: "Failed to export credit transactions",
};

/** /admin/credit-transactions (admin-side spec, sections 2 and 7). */
export function AdminCreditTransactionsPage() {
  const authorised = hasAdminToken();
  const list = useListParams(adminCreditTransactionsQuerySchema, TRANSACTION_LIST_OPTIONS);
  const query = useQuery(creditTransactionsQuery(list.params, authorised));
  return (
    <TransactionsScreen
      authorised={authorised}
      title="Credit Transactions"
      description="Every credit package purchase, newest first."
      top={<RevenueCards kind="credits" />}
      filters={
        <FiltersForm list={list} schema={adminCreditTransactionsQuerySchema} {...PAYMENT_FILTERS} />
      }
      columns={COLUMNS}
      list={list}
      query={query}
      emptyMessage="No credit transactions found"
      failedMessage="Failed to fetch credit transactions"
      csv={CSV}
    />
  );
}
