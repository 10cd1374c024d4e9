import { useQuery } from "@tanstack/react-query";
import { type AdminUserListItem, adminUsersQuerySchema } from "@twinline/contracts";
import { clsx } from "clsx";
import { Eye, UserCheck, UserX } from "lucide-react";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { ListPager } from "@/components/ui/list-pager";
import { ErrorState } from "@/components/ui/load-states";
import { PageHeader } from "@/components/ui/page-header";
import { PagedTable, type TableColumn, TableEmptyMessage } from "@/components/ui/paged-table";
import { EmailCell, PersonNameCell } from "@/components/ui/person-cells";
import { UserSearchBox, useDebouncedSearch } from "@/components/ui/search-box";
import { tdClasses, wordWrapTdClasses } from "@/components/ui/sortable-header";
import { TableToolbar } from "@/components/ui/table-toolbar";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { namesAscendingFirst, useListParams } from "@/hooks/use-list-params";
import { formatCount, formatDate } from "@/lib/format";
import { subscriptionStatusLabel } from "../api/format";
import {
  adminUsersQuery,
  USERS_PAGE_SIZE,
  type UserSortField,
  type UsersListParams,
} from "../api/users";
import { useUserStatus } from "../hooks/use-user-status";
import { ConfirmStatusDialog, type StatusTarget } from "./confirm-status-dialog";
import { AccountStatusBadge } from "./ui";
import { UserGrowthCards } from "./user-growth-cards";

const COLUMNS: TableColumn<UserSortField>[] = [
  { label: "Name", sortBy: "name" },
  { label: "Email", sortBy: "email" },
  { label: "Join Date", sortBy: "createdAt" },
  { label: "Last Active", sortBy: "lastActive" },
  { label: "Credits", sortBy: "credits" },
  { label: "Subscription Status" },
  { label: "Account Status" },
  { label: "Actions", className: "text-right" },
];

function SubscriptionBadge({ status }: { status: AdminUserListItem["subscription"]["status"] }) {
  const label = subscriptionStatusLabel(status);
  const tone = label === "Active" ? "green" : label === "Canceled" ? "yellow" : "grey";
  return <Badge tone={tone}>{label}</Badge>;
}

/** What the address never carries: the page size and the spec's status=all. */
const FIXED = { limit: USERS_PAGE_SIZE, status: "all" as const };

/** /admin/users: the four user-growth cards and the searchable, sortable, paged users table. */
export function AdminUsersPage() {
  // Page, sort and search live in the address, read through the contract's query schema.
  const list = useListParams(adminUsersQuerySchema, {
    fixed: FIXED,
    firstSortOrder: namesAscendingFirst,
  });
  const { update, sort } = list;
  const params = useMemo<UsersListParams>(
    () => ({
      page: list.params.page,
      sortBy: list.params.sortBy,
      sortOrder: list.params.sortOrder === 1 ? 1 : -1,
      search: list.params.search ?? "",
    }),
    [list.params],
  );
  const users = useQuery(adminUsersQuery(params));
  // A new search starts again on page 1.
  const [searchText, setSearchText] = useDebouncedSearch(params.search, (search) =>
    update({ search, page: 1 }),
  );
  const [target, setTarget] = useState<StatusTarget | null>(null);
  const status = useUserStatus();

  useDocumentTitle("Users · Twinline Admin");

  const pagination = users.data?.pagination;
  const rows = users.data?.users ?? [];

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Users"
        description="Find users, see their credits and subscriptions, and activate or deactivate accounts."
      />

      <UserGrowthCards />

      <Card className="overflow-hidden">
        <TableToolbar
          title={
            <>
              All Users
              {pagination && (
                <span className="ml-2 text-sm font-normal text-stone-500 dark:text-stone-400">
                  ({formatCount(pagination.total)})
                </span>
              )}
            </>
          }
        >
          <UserSearchBox value={searchText} onChange={setSearchText} />
        </TableToolbar>

        {users.isError && !users.data ? (
          <ErrorState
            layout="inline"
            message="Failed to load users"
            onRetry={() => users.refetch()}
          />
        ) : (
          <>
            <PagedTable
              caption="Users"
              columns={COLUMNS}
              sortBy={params.sortBy}
              sortOrder={params.sortOrder}
              onSort={sort}
              pending={users.isPending}
              fetching={users.isFetching}
              placeholder={users.isPlaceholderData}
              scrollTestId="users-table-scroll"
            >
              {rows.map((user) => (
                <tr
                  key={user._id}
                  data-testid="user-row"
                  className="hover:bg-stone-50 dark:hover:bg-white/[0.03]"
                >
                  <PersonNameCell person={user}>
                    <Link
                      to={`/admin/users/${user._id}`}
                      className="font-medium text-stone-900 hover:text-brand-600 dark:text-white dark:hover:text-brand-300"
                    >
                      {user.name}
                    </Link>
                  </PersonNameCell>
                  <EmailCell email={user.email} />
                  {/* Dates may wrap between words too: with long names and e-mails kept whole,
                      that is what keeps the table within 1280 px with the sidebar open. */}
                  <td className={wordWrapTdClasses}>{formatDate(user.createdAt)}</td>
                  <td className={wordWrapTdClasses}>{formatDate(user.lastActive, "Never")}</td>
                  <td className={clsx(tdClasses, "tabular-nums")}>{formatCount(user.credits)}</td>
                  <td className={tdClasses}>
                    <SubscriptionBadge status={user.subscription.status} />
                  </td>
                  <td className={tdClasses}>
                    <AccountStatusBadge isActive={user.isActive} />
                  </td>
                  <td className={clsx(tdClasses, "text-right")}>
                    <div className="inline-flex items-center gap-1">
                      <button
                        type="button"
                        onClick={() => setTarget(user)}
                        aria-label={`${user.isActive ? "Deactivate" : "Activate"} ${user.name}`}
                        title={user.isActive ? "Deactivate" : "Activate"}
                        className={clsx(
                          "inline-flex size-9 items-center justify-center rounded-full transition",
                          user.isActive
                            ? "text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-500/10"
                            : "text-emerald-600 hover:bg-emerald-50 dark:text-emerald-400 dark:hover:bg-emerald-500/10",
                        )}
                      >
                        {user.isActive ? (
                          <UserX aria-hidden="true" className="size-4.5" />
                        ) : (
                          <UserCheck aria-hidden="true" className="size-4.5" />
                        )}
                      </button>
                      <Link
                        to={`/admin/users/${user._id}`}
                        aria-label={`View details of ${user.name}`}
                        title="View details"
                        className="inline-flex size-9 items-center justify-center rounded-full text-stone-600 transition hover:bg-stone-100 hover:text-stone-900 dark:text-stone-300 dark:hover:bg-white/10 dark:hover:text-white"
                      >
                        <Eye aria-hidden="true" className="size-4.5" />
                      </Link>
                    </div>
                  </td>
                </tr>
              ))}
            </PagedTable>
            {!users.isPending && rows.length === 0 && (
              <TableEmptyMessage>
                {params.search ? `No users match "${params.search}"` : "No users found"}
              </TableEmptyMessage>
            )}
            {users.isError && (
              <p
                role="alert"
                className="border-t border-stone-200 px-4 py-2 text-sm text-red-600 dark:border-white/10 dark:text-red-400"
              >
                Failed to load users
              </p>
            )}
            <ListPager
              pagination={pagination}
              page={params.page}
              onPage={(page) => update({ page })}
              disabled={users.isFetching}
              noun="users"
            />
          </>
        )}
      </Card>

      <ConfirmStatusDialog
        target={target}
        pending={status.isPending}
        onCancel={() => setTarget(null)}
        onConfirm={(user) =>
          status.mutate(
            { userId: user._id, action: user.isActive ? "deactivate" : "activate" },
            { onSettled: () => setTarget(null) },
          )
        }
      />
    </div>
  );
}
