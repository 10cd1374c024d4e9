import { useQuery } from "@tanstack/react-query";
import {
  adminSubscriptionHistoryQuerySchema,
  SUBSCRIPTION_HISTORY_CSV_COLUMNS,
  type SUBSCRIPTION_HISTORY_SORT_FIELDS,
  type SubscriptionHistoryEvent as SubscriptionEvent,
} from "@twinline/contracts";
import toast from "react-hot-toast";
import type { TableColumn } from "@/components/ui/paged-table";
import { tdClasses } from "@/components/ui/sortable-header";
import { useListParams } from "@/hooks/use-list-params";
import { formatMoney } from "@/lib/money";
import { csvFileName, downloadCsv, toCsv } from "../api/csv";
import { ADMIN_TRANSACTIONS_PAGE_SIZE, subscriptionHistoryQuery } from "../api/transactions";
import { FiltersForm, type Option } from "./filters";
import { hasAdminToken, TransactionsScreen } from "./transactions-screen";
import { formatDateTime, formatDay, SubscriptionStatusBadge, UserCell } from "./ui";

const FIXED = { limit: ADMIN_TRANSACTIONS_PAGE_SIZE };

const COLUMNS: TableColumn<(typeof SUBSCRIPTION_HISTORY_SORT_FIELDS)[number]>[] = [
  { label: "Date", sortBy: "timestamp" },
  { label: "User", sortBy: "user" },
  { label: "Plan", sortBy: "planName" },
  { label: "Event Type", sortBy: "eventType" },
  { label: "Status", sortBy: "status" },
  { label: "Period" },
  { label: "Amount", sortBy: "amount" },
  { label: "Auto Renew" },
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
  { value: "canceled", label: "Canceled" },
  { value: "past_due", label: "Past due" },
  { value: "unpaid", label: "Unpaid" },
  { value: "incomplete", label: "Incomplete" },
];

export function subscriptionHistoryCsv(rows: SubscriptionEvent[]): string {
  return toCsv(
    SUBSCRIPTION_HISTORY_CSV_COLUMNS,
    rows.map((r) => [
      r.timestamp,
      r.userId?.email,
      r.userId?.name,
      r.planId?.name,
      r.eventType,
      r.status,
      r.startDate,
      r.endDate,
      r.amount.toFixed(2),
      r.currency?.toUpperCase(),
      r.autoRenew ? "Yes" : "No",
      r.stripeSubscriptionId,
    ]),
  );
}

/** /admin/subscription-history (admin-side spec, sections 2 and 7). */
export function AdminSubscriptionHistoryPage() {
  const authorised = hasAdminToken();
  const { params, update, filter, sort } = useListParams(adminSubscriptionHistoryQuerySchema, {
    fixed: FIXED,
  });
  const query = useQuery(subscriptionHistoryQuery(params, authorised));
  return (
    <TransactionsScreen
      authorised={authorised}
      title="Subscription History"
      description="Every subscription event: created, updated, canceled, renewed and failed payments."
      filters={
        <FiltersForm
          values={{
            userId: params.userId ?? "",
            status: params.status ?? "all",
            eventType: params.eventType ?? "all",
            startDate: params.startDate ?? "",
            endDate: params.endDate ?? "",
          }}
          textLabel="Search by email"
          statuses={STATUSES}
          eventTypes={EVENT_TYPES}
          submitLabel="Apply Filters"
          onApply={(f) =>
            filter({
              userId: f.userId || undefined,
              status: adminSubscriptionHistoryQuerySchema.shape.status.catch("all").parse(f.status),
              eventType: adminSubscriptionHistoryQuerySchema.shape.eventType
                .catch("all")
                .parse(f.eventType),
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
      emptyMessage="No subscription history records found"
      failedMessage="Failed to fetch subscription history data"
      onExport={(rows) => {
        try {
          downloadCsv.save(csvFileName("subscription-history"), subscriptionHistoryCsv(rows));
          toast.success("Export Successful");
        } catch {
          toast.error("There was a problem exporting the subscription history data.");
        }
      }}
      renderRow={(r) => (
        <tr key={r._id}>
          <td className={tdClasses}>{formatDateTime(r.timestamp)}</td>
          <td className={tdClasses}>
            <UserCell user={r.userId} />
          </td>
          <td className={tdClasses}>{r.planId?.name ?? "N/A"}</td>
          <td className={tdClasses}>{r.eventType.replace("_", " ")}</td>
          <td className={tdClasses}>
            <SubscriptionStatusBadge status={r.status} />
          </td>
          <td className={tdClasses}>
            {formatDay(r.startDate)} – {formatDay(r.endDate)}
          </td>
          <td className={`${tdClasses} tabular-nums`}>{formatMoney(r.amount, r.currency)}</td>
          <td className={tdClasses}>{r.autoRenew ? "Yes" : "No"}</td>
        </tr>
      )}
    />
  );
}
