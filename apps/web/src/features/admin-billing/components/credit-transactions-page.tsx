import { useQuery } from "@tanstack/react-query";
import {
  type AdminCreditTransaction,
  adminCreditTransactionsQuerySchema,
  type CREDIT_TRANSACTION_SORT_FIELDS,
  CREDIT_TRANSACTIONS_CSV_COLUMNS,
} from "@twinline/contracts";
import toast from "react-hot-toast";
import type { TableColumn } from "@/components/ui/paged-table";
import { tdClasses } from "@/components/ui/sortable-header";
import { useListParams } from "@/hooks/use-list-params";
import { formatMoney } from "@/lib/money";
import { csvFileName, downloadCsv, toCsv } from "../api/csv";
import { ADMIN_TRANSACTIONS_PAGE_SIZE, creditTransactionsQuery } from "../api/transactions";
import { FiltersForm, TRANSACTION_STATUSES } from "./filters";
import { hasAdminToken, TransactionsScreen } from "./transactions-screen";
import { formatDateTime, RevenueCards, TransactionStatusBadge, UserCell } from "./ui";

const FIXED = { limit: ADMIN_TRANSACTIONS_PAGE_SIZE };

const COLUMNS: TableColumn<(typeof CREDIT_TRANSACTION_SORT_FIELDS)[number]>[] = [
  { label: "Date", sortBy: "transactionDate" },
  { label: "User", sortBy: "user" },
  { label: "Credits", sortBy: "credits" },
  { label: "Amount", sortBy: "amount" },
  { label: "Status", sortBy: "status" },
  { label: "Package", sortBy: "packageName" },
  { label: "Transaction ID", sortBy: "stripePaymentId" },
];

export function creditTransactionsCsv(rows: AdminCreditTransaction[]): string {
  return toCsv(
    CREDIT_TRANSACTIONS_CSV_COLUMNS,
    rows.map((r) => [
      r.transactionDate,
      r.userId?.email,
      r.userId?.name,
      r.metadata.packageName,
      r.credits,
      r.amount.toFixed(2),
      r.currency.toUpperCase(),
      r.status,
      r.stripePaymentId,
    ]),
  );
}

/** /admin/credit-transactions (admin-side spec, sections 2 and 7). */
export function AdminCreditTransactionsPage() {
  const authorised = hasAdminToken();
  const { params, update, filter, sort } = useListParams(adminCreditTransactionsQuerySchema, {
    fixed: FIXED,
  });
  const query = useQuery(creditTransactionsQuery(params, authorised));
  return (
    <TransactionsScreen
      authorised={authorised}
      title="Credit Transactions"
      description="Every credit package purchase, newest first."
      top={<RevenueCards kind="credits" />}
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
              status: adminCreditTransactionsQuerySchema.shape.status.catch("all").parse(f.status),
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
      emptyMessage="No credit transactions found"
      failedMessage="Failed to fetch credit transactions"
      onExport={(rows) => {
        try {
          downloadCsv.save(csvFileName("credit-transactions"), creditTransactionsCsv(rows));
          toast.success("Export Complete");
        } catch {
          toast.error("Failed to export credit transactions");
        }
      }}
      renderRow={(r) => (
        <tr key={r._id}>
          <td className={tdClasses}>{formatDateTime(r.transactionDate)}</td>
          <td className={tdClasses}>
            <UserCell user={r.userId} />
          </td>
          <td className={`${tdClasses} tabular-nums`}>{r.credits.toLocaleString("en-US")}</td>
          <td className={`${tdClasses} tabular-nums`}>{formatMoney(r.amount, r.currency)}</td>
          <td className={tdClasses}>
            <TransactionStatusBadge status={r.status} />
          </td>
          <td className={tdClasses}>{r.metadata.packageName ?? "N/A"}</td>
          <td className={`${tdClasses} font-mono text-xs`}>{r.stripePaymentId ?? "N/A"}</td>
        </tr>
      )}
    />
  );
}
