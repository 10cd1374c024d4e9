import { useQuery } from "@tanstack/react-query";
import { userAnalyticsQuerySchema } from "@twinline/contracts";
import { clsx } from "clsx";
import type { LucideIcon } from "lucide-react";
import { Clock, Timer, Users } from "lucide-react";
import { Card } from "@/components/ui/card";
import { ListPager } from "@/components/ui/list-pager";
import { PageHeader } from "@/components/ui/page-header";
import { PagedTable, type TableColumn, TableEmptyMessage } from "@/components/ui/paged-table";
import { EmailCell, PersonNameCell } from "@/components/ui/person-cells";
import { UserSearchBox, useDebouncedSearch } from "@/components/ui/search-box";
import { Skeleton } from "@/components/ui/skeleton";
import { tdClasses } from "@/components/ui/sortable-header";
import { TableToolbar } from "@/components/ui/table-toolbar";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { namesAscendingFirst, useListParams } from "@/hooks/use-list-params";
import { errorMessage } from "@/lib/api-client";
import { formatCount, formatDateTime, formatDuration } from "@/lib/format";
import { ANALYTICS_PAGE_SIZE, userAnalyticsQuery } from "../api/analytics";
import { CrisisReferralsCard } from "./crisis-referrals-card";

type SortField = "name" | "email" | "interactionTime" | "creditsUsed" | "lastInteraction";

const COLUMNS: TableColumn<SortField>[] = [
  { label: "Name", sortBy: "name" },
  { label: "Email", sortBy: "email" },
  { label: "Total Interaction Time", sortBy: "interactionTime" },
  { label: "Total Credits Used", sortBy: "creditsUsed" },
  { label: "Last Interaction", sortBy: "lastInteraction" },
];

const FIXED = { limit: ANALYTICS_PAGE_SIZE };

export const ANALYTICS_TEXT = { fallbackError: "Failed to fetch user analytics" } as const;

function SummaryCard({
  label,
  value,
  icon: Icon,
  pending,
}: {
  label: string;
  value: string;
  icon: LucideIcon;
  pending: boolean;
}) {
  return (
    <Card className="flex items-start justify-between gap-2 p-4" data-testid="analytics-card">
      <div className="min-w-0">
        <p className="text-sm font-medium text-stone-500 dark:text-stone-400">{label}</p>
        {pending ? (
          <Skeleton className="mt-2 h-7 w-16" />
        ) : (
          <p className="mt-1 font-display text-2xl font-bold text-stone-900 dark:text-white">
            {value}
          </p>
        )}
      </div>
      <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-500/10 dark:text-brand-300">
        <Icon aria-hidden="true" className="size-5" />
      </span>
    </Card>
  );
}

/** /admin/UserAnalytics: the three totals and the searchable, sortable, paged table. */
export function AdminUserAnalyticsPage() {
  const { params, update, filter, sort } = useListParams(userAnalyticsQuerySchema, {
    fixed: FIXED,
    firstSortOrder: namesAscendingFirst,
  });
  const analytics = useQuery(userAnalyticsQuery(params));
  const [searchText, setSearchText] = useDebouncedSearch(params.search ?? "", (search) =>
    filter({ search }),
  );

  useDocumentTitle("User Analytics · Twinline Admin");

  const body = analytics.data;
  const rows = body?.data.userInteractions ?? [];
  const pagination = body?.pagination;
  const pending = analytics.isPending;

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="User Analytics"
        description="Who talks with the persona, for how long, and what it costs them."
      />

      {analytics.isError && (
        <p
          role="alert"
          className="rounded-2xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
        >
          Error loading analytics: {errorMessage(analytics.error, ANALYTICS_TEXT.fallbackError)}
        </p>
      )}

      <div className="grid gap-3 sm:grid-cols-3">
        <SummaryCard
          label="Total Interacted Users"
          icon={Users}
          pending={pending}
          value={formatCount(body?.data.totalInteractedUsers ?? 0)}
        />
        <SummaryCard
          label="Total Interaction Time"
          icon={Clock}
          pending={pending}
          value={formatDuration(body?.data.totalInteractionTime ?? 0)}
        />
        <SummaryCard
          label="Avg. Interaction Time"
          icon={Timer}
          pending={pending}
          value={formatDuration(body?.data.avgInteractionTime ?? 0)}
        />
      </div>

      <CrisisReferralsCard />

      <Card className="overflow-hidden">
        <TableToolbar title="User Interactions">
          <UserSearchBox value={searchText} onChange={setSearchText} />
        </TableToolbar>
        <PagedTable
          caption="User interactions"
          columns={COLUMNS}
          sortBy={params.sortBy}
          sortOrder={params.sortOrder as 1 | -1}
          onSort={sort}
          pending={pending}
          fetching={analytics.isFetching}
          placeholder={analytics.isPlaceholderData}
        >
          {rows.map((row) => (
            <tr
              key={row.id}
              data-testid="analytics-row"
              className="hover:bg-stone-50 dark:hover:bg-white/[0.03]"
            >
              <PersonNameCell person={row}>
                <span className="font-medium text-stone-900 dark:text-white">{row.name}</span>
              </PersonNameCell>
              <EmailCell email={row.email} />
              <td className={clsx(tdClasses, "tabular-nums")}>
                {formatDuration(row.interactionTime)}
              </td>
              <td className={clsx(tdClasses, "tabular-nums")}>{formatCount(row.creditsUsed)}</td>
              <td className={tdClasses}>{formatDateTime(row.lastInteraction)}</td>
            </tr>
          ))}
        </PagedTable>
        {!pending && !analytics.isError && rows.length === 0 && (
          <TableEmptyMessage>
            {params.search ? `No users match "${params.search}"` : "No user interactions yet"}
          </TableEmptyMessage>
        )}
        <ListPager
          pagination={pagination}
          page={params.page}
          onPage={(page) => update({ page })}
          disabled={analytics.isFetching}
          noun="users"
        />
      </Card>
    </div>
  );
}
