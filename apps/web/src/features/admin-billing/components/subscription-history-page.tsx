import { useQuery } from "@tanstack/react-query";
import {
  adminSubscriptionHistoryQuerySchema,
  type SubscriptionHistoryEvent as Row,
  routes,
  SUBSCRIPTION_HISTORY_CSV_COLUMNS,
  type SUBSCRIPTION_HISTORY_SORT_FIELDS,
  subscriptionHistoryCsvRow,
} from "@twinline/contracts";
import { useListParams } from "@/hooks/use-list-params";
import { formatDate } from "@/lib/format";
import { subscriptionHistoryQuery } from "../api/transactions";
import type { CsvExport } from "./csv-export";
import { FiltersForm } from "./filters";
import type { Option } from "./form-controls";
import { amountColumn, dateColumn, truncatedColumn, userColumn } from "./transaction-columns";
import type { TransactionColumn } from "./transaction-table";
import { hasAdminToken, TRANSACTION_LIST_OPTIONS, TransactionsScreen } from "./transactions-screen";
import { SubscriptionStatusBadge } from "./ui";

const COLUMNS: TransactionColumn<Row, (typeof SUBSCRIPTION_HISTORY_SORT_FIELDS)[number]>[] = [
  dateColumn("timestamp", (r) => r.timestamp),
  userColumn,
  truncatedColumn("Plan", "planName", (r) => r.planId?.name),
  { label: "Event Type", sortBy: "eventType", cell: (r) => r.eventType.replace("_", " ") },
  { label: "Status", sortBy: "status", cell: (r) => <SubscriptionStatusBadge status={r.status} /> },
  {
    label: "Period",
    cell: (r) => (
      <>
        {formatDate(r.startDate, "N/A")} – {formatDate(r.endDate, "N/A")}
      </>
    ),
  },
  amountColumn,
  { label: "Auto Renew", cell: (r) => (r.autoRenew ? "Yes" : "No") },
];

const EVENT_TYPES: Option[] = [
  { value: "all", label: "All" },
  { value: "created", label: "Created" },
  { value: "updated", label: "Updated" },
  { value: "canceled", label: "Canceled" },
  { value: "renewed", label: "Renewed" },
  { value: "payment_failed", label: "Payment failed" },
];
const STATUSES: Option[] = [
  { value: "all", label: "All" },
  { value: "active", label: "Active" },
  { value: "trialing", label: "Trialing" },
  { value: "canceled", label: "Canceled" },
  { value: "past_due", label: "Past due" },
  { value: "unpaid", label: "Unpaid" },
  { value: "incomplete", label: "Incomplete" },
];

const CSV: CsvExport<Row> = {
  fileName: "subscription-history",
  all: routes.adminBilling.subscriptionHistoryExport,
  columns: SUBSCRIPTION_HISTORY_CSV_COLUMNS,
  row: subscriptionHistoryCsvRow,
  done: "Export Successful",
  failed: "There was a problem exporting the subscription history data.",
};

/** /admin/subscription-history (admin-side spec, sections 2 and 7). */
export function AdminSubscriptionHistoryPage() {
  const authorised = hasAdminToken();
  const list = useListParams(adminSubscriptionHistoryQuerySchema, TRANSACTION_LIST_OPTIONS);
  const query = useQuery(subscriptionHistoryQuery(list.params, authorised));
  return (
    <TransactionsScreen
      authorised={authorised}
      title="Subscription History"
      description="Every subscription event: created, updated, canceled, renewed and failed payments."
      filters={
        <FiltersForm
          list={list}
          schema={adminSubscriptionHistoryQuerySchema}
          textLabel="Search by email"
          statuses={STATUSES}
          eventTypes={EVENT_TYPES}
          submitLabel="Apply Filters"
        />
      }
      columns={COLUMNS}
      list={list}
      query={query}
      emptyMessage="No subscription history records found"
      failedMessage="Failed to fetch subscription history data"
      csv={CSV}
    />
  );
}
