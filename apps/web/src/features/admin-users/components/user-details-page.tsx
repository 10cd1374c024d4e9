import { useQuery } from "@tanstack/react-query";
import type { AdminUserDetail } from "@twinline/contracts";
import { clsx } from "clsx";
import { ArrowLeft, RotateCw, UserCheck, UserX } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { MoneyFigure } from "@/components/ui/money-figure";
import { PageTabs, TabPanel } from "@/components/ui/page-tabs";
import { EmailText } from "@/components/ui/person-cells";
import { Spinner } from "@/components/ui/spinner";
import { TransactionStatusBadge } from "@/components/ui/transaction-status-badge";
import { UserAvatar } from "@/components/ui/user-avatar";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { useTabParam } from "@/hooks/use-tab-param";
import { ApiError } from "@/lib/api-client";
import { formatCount, formatDate, formatDateTime, formatMoney } from "@/lib/format";
import { roleLabel } from "../api/format";
import type { UserTransactionsParams } from "../api/transactions";
import { adminUserQuery } from "../api/users";
import { useUserStatus } from "../hooks/use-user-status";
import {
  type CreditTransactionRow,
  type SubscriptionTransactionRow,
  useUserCreditTransactions,
  useUserSubscriptionTransactions,
} from "../hooks/use-user-transactions";
import { ConfirmStatusDialog, type StatusTarget } from "./confirm-status-dialog";
import { DateOfBirthValue } from "./date-of-birth-dialog";
import { MoneyActions } from "./money-actions";
import { PrivacyActions } from "./privacy-actions";
import { RefundDialog, type RefundTarget, withRefundAction } from "./refund-dialog";
import { SubscriptionCard } from "./subscription-card";
import { FIRST_PAGE, type TransactionColumn, TransactionsTable } from "./transactions-table";
import { AccountStatusBadge } from "./ui";

const TABS = [
  { value: "overview", label: "Overview" },
  { value: "credits", label: "Credit Transactions" },
  { value: "subscriptions", label: "Subscription Transactions" },
] as const;
type TabValue = (typeof TABS)[number]["value"];

/** The overview's recent lists show this many (admin-side spec, section 9). */
const RECENT_COUNT = 3;

const money = (r: { amount: number; currency: string }) => formatMoney(r.amount, r.currency);

const creditColumns: TransactionColumn<CreditTransactionRow>[] = [
  { label: "Date", sortBy: "transactionDate", render: (r) => formatDateTime(r.transactionDate) },
  { label: "Credits", sortBy: "credits", render: (r) => formatCount(r.credits) },
  { label: "Amount", sortBy: "amount", render: money },
  {
    label: "Status",
    sortBy: "status",
    render: (r) => (
      <TransactionStatusBadge status={r.status} reason={r.failureReason} payment={r} />
    ),
  },
  { label: "Transaction ID", sortBy: "transactionId", render: (r) => r.transactionId ?? "N/A" },
];

const subscriptionColumns: TransactionColumn<SubscriptionTransactionRow>[] = [
  { label: "Date", sortBy: "transactionDate", render: (r) => formatDateTime(r.transactionDate) },
  { label: "Plan", sortBy: "planName", render: (r) => r.planName ?? "N/A" },
  { label: "Amount", sortBy: "amount", render: money },
  {
    label: "Status",
    sortBy: "status",
    render: (r) => (
      <TransactionStatusBadge status={r.status} reason={r.failureReason} payment={r} />
    ),
  },
  { label: "Transaction ID", sortBy: "transactionId", render: (r) => r.transactionId ?? "N/A" },
];

/** The overview's recent lists: the newest few of each kind. */
const RECENT: UserTransactionsParams = { ...FIRST_PAGE, limit: RECENT_COUNT };

function BackLink() {
  return (
    <Link
      to="/admin/users"
      className="inline-flex items-center gap-1.5 rounded-full py-1 text-sm font-medium text-stone-600 hover:text-stone-900 dark:text-stone-300 dark:hover:text-white"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to Users
    </Link>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2.5">
      <dt className="text-sm text-stone-500 dark:text-stone-400">{label}</dt>
      <dd className="text-right text-sm font-medium break-all text-stone-900 dark:text-white">
        {children}
      </dd>
    </div>
  );
}

function RecentList<
  T extends {
    _id: string;
    transactionDate: string;
    amount: number;
    currency: string;
    status: string;
  },
>({
  title,
  rows,
  describe,
  onViewAll,
}: {
  title: string;
  rows: T[];
  describe: (row: T) => string;
  onViewAll: () => void;
}) {
  const recent = rows.slice(0, RECENT_COUNT);
  return (
    <Card className="p-5">
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-display text-base font-semibold text-stone-900 dark:text-white">
          {title}
        </h2>
        <button
          type="button"
          onClick={onViewAll}
          className="shrink-0 rounded-md text-sm font-medium whitespace-nowrap text-brand-600 hover:text-brand-700 dark:text-brand-400 dark:hover:text-brand-300"
        >
          View all
        </button>
      </div>
      {recent.length === 0 ? (
        <p className="py-6 text-center text-sm text-stone-600 dark:text-stone-400">
          No transactions found
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-stone-100 dark:divide-white/5">
          {recent.map((row) => (
            <li key={row._id} className="flex items-center justify-between gap-3 py-2.5 text-sm">
              <div className="min-w-0">
                <p className="truncate font-medium text-stone-900 dark:text-white">
                  {describe(row)}
                </p>
                <p className="text-xs text-stone-500 dark:text-stone-400">
                  {formatDate(row.transactionDate)}
                </p>
              </div>
              <div className="flex shrink-0 items-center gap-2">
                <span className="tabular-nums text-stone-900 dark:text-white">
                  {formatMoney(row.amount, row.currency)}
                </span>
                <TransactionStatusBadge status={row.status} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Overview({
  user,
  credits,
  subscriptions,
  onTab,
}: {
  user: AdminUserDetail;
  credits: CreditTransactionRow[];
  subscriptions: SubscriptionTransactionRow[];
  onTab: (tab: TabValue) => void;
}) {
  return (
    <div className="space-y-4">
      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="flex flex-col items-center p-6 text-center" data-testid="profile-card">
          <UserAvatar name={user.name} email={user.email} image={user.profileImage} size="lg" />
          <h2 className="mt-4 font-display text-xl font-bold break-words text-stone-900 dark:text-white">
            {user.name}
          </h2>
          <p className="mt-1 text-sm break-words text-stone-600 dark:text-stone-400">
            <EmailText email={user.email} />
          </p>
          <div className="mt-4 flex flex-wrap justify-center gap-2">
            <Badge tone={user.role === "admin" ? "brand" : "blue"}>{roleLabel(user.role)}</Badge>
            <AccountStatusBadge isActive={user.isActive} />
          </div>
        </Card>
        <Card className="p-5" data-testid="account-information">
          <h2 className="font-display text-base font-semibold text-stone-900 dark:text-white">
            Account Information
          </h2>
          <dl className="mt-2 divide-y divide-stone-100 dark:divide-white/5">
            <Field label="Role">{roleLabel(user.role)}</Field>
            <Field label="Status">{user.isActive ? "Active" : "Inactive"}</Field>
            <Field label="Join Date">{formatDate(user.createdAt)}</Field>
            <Field label="Last Login">{formatDateTime(user.lastLogin, "Never")}</Field>
            <Field label="Last Active">{formatDateTime(user.lastActive, "Never")}</Field>
            <Field label="Credits">{formatCount(user.credits)}</Field>
            <Field label="Total Spent">
              <MoneyFigure
                metric={{ value: user.totalSpent, byCurrency: user.totalSpentByCurrency }}
              />
            </Field>
            <Field label="Messages Today">{formatCount(user.dailyMessageCount)}</Field>
            <Field label="Sign-in">{user.googleId ? "Google" : "Email and password"}</Field>
            <Field label="Date of Birth">
              <DateOfBirthValue user={user} />
            </Field>
          </dl>
        </Card>
        <SubscriptionCard subscription={user.subscription} />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <RecentList
          title="Recent Credit Transactions"
          rows={credits}
          describe={(row) => `${formatCount(row.credits)} credits`}
          onViewAll={() => onTab("credits")}
        />
        <RecentList
          title="Recent Subscription Transactions"
          rows={subscriptions}
          describe={(row) => row.planName ?? "Subscription"}
          onViewAll={() => onTab("subscriptions")}
        />
      </div>
    </div>
  );
}

/**
 * /admin/users/{userId}: Back link, the activate or deactivate action (the user is reloaded
 * afterwards) and three tabs: Overview, Credit Transactions, Subscription Transactions.
 */
export function AdminUserDetailsPage({ userId }: { userId: string }) {
  const user = useQuery(adminUserQuery(userId));
  const [creditParams, setCreditParams] = useState(FIRST_PAGE);
  const [subscriptionParams, setSubscriptionParams] = useState(FIRST_PAGE);
  const credits = useUserCreditTransactions(userId, creditParams);
  const subscriptions = useUserSubscriptionTransactions(userId, subscriptionParams);
  const recentCredits = useUserCreditTransactions(userId, RECENT);
  const recentSubscriptions = useUserSubscriptionTransactions(userId, RECENT);
  const status = useUserStatus();
  const [target, setTarget] = useState<StatusTarget | null>(null);
  const [refunding, setRefunding] = useState<RefundTarget | null>(null);
  const [tab, setTab] = useTabParam(TABS);

  useDocumentTitle(`${user.data?.name ?? "User Details"} · Twinline Admin`);
  // The newest paid plan payment while the plan is in force: its refund offers to end the plan
  // (issue 24). The recent list is newest first; the server checks it again.
  const latestPlanPaymentId =
    user.data?.subscription?.status === "active"
      ? recentSubscriptions.rows.find((row) => row.status === "success")?._id
      : undefined;

  if (user.isPending) {
    return (
      <div className="mx-auto max-w-7xl space-y-6">
        <BackLink />
        <div className="flex justify-center py-24">
          <Spinner label="Loading user details" />
        </div>
      </div>
    );
  }

  if (user.isError) {
    const notFound = user.error instanceof ApiError && user.error.status === 404;
    return (
      <div className="mx-auto max-w-7xl space-y-6">
        <BackLink />
        <Card className="flex flex-col items-center gap-3 px-6 py-16 text-center">
          <h1 className="font-display text-xl font-bold text-stone-900 dark:text-white">
            {notFound ? "User not found" : "Error loading user details"}
          </h1>
          <p role="alert" className="text-sm text-stone-600 dark:text-stone-400">
            {notFound
              ? "This user does not exist or has been removed."
              : "Failed to load user details"}
          </p>
          {!notFound && (
            <button
              type="button"
              onClick={() => user.refetch()}
              className={buttonClasses("secondary", "sm", "mt-2")}
            >
              <RotateCw aria-hidden="true" className="size-4" />
              Try again
            </button>
          )}
        </Card>
      </div>
    );
  }

  const detail = user.data;
  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <BackLink />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <h1 className="font-display text-2xl font-bold break-all text-stone-900 sm:text-3xl dark:text-white">
            User Details
          </h1>
          <p className="mt-1 text-sm break-words text-stone-600 dark:text-stone-400">
            {detail.name} · <EmailText email={detail.email} />
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <MoneyActions user={detail} />
          <PrivacyActions user={detail} />
          <button
            type="button"
            onClick={() => setTarget(detail)}
            disabled={status.isPending}
            className={clsx(
              buttonClasses("secondary", "md"),
              detail.isActive
                ? "text-red-700 hover:border-red-300 hover:bg-red-50 dark:text-red-300 dark:hover:border-red-400/50 dark:hover:bg-red-500/10"
                : "text-emerald-700 hover:border-emerald-300 hover:bg-emerald-50 dark:text-emerald-300 dark:hover:border-emerald-400/50 dark:hover:bg-emerald-500/10",
            )}
          >
            {detail.isActive ? (
              <UserX aria-hidden="true" className="size-4" />
            ) : (
              <UserCheck aria-hidden="true" className="size-4" />
            )}
            {detail.isActive ? "Deactivate User" : "Activate User"}
          </button>
        </div>
      </div>

      <PageTabs label="User details" tabs={TABS} value={tab} onValueChange={setTab}>
        <TabPanel value="overview">
          <Overview
            user={detail}
            credits={recentCredits.rows}
            subscriptions={recentSubscriptions.rows}
            onTab={setTab}
          />
        </TabPanel>
        <TabPanel value="credits">
          <Card className="overflow-hidden">
            <TransactionsTable
              title="Credit Transactions"
              state={credits}
              params={creditParams}
              onParams={setCreditParams}
              columns={withRefundAction(
                creditColumns,
                (r) => `${formatCount(r.credits)} credits`,
                setRefunding,
              )}
              searchLabel="Search credit transactions by ID or status"
              emptyMessage="No credit transactions found"
              noMatchMessage="No matching transactions found"
            />
          </Card>
        </TabPanel>
        <TabPanel value="subscriptions">
          <Card className="overflow-hidden">
            <TransactionsTable
              title="Subscription Transactions"
              state={subscriptions}
              params={subscriptionParams}
              onParams={setSubscriptionParams}
              columns={withRefundAction(
                subscriptionColumns,
                (r) => r.planName ?? "Subscription",
                setRefunding,
                (r) => r._id === latestPlanPaymentId,
              )}
              searchLabel="Search subscription transactions by ID, plan or status"
              emptyMessage="No subscription transactions found"
              noMatchMessage="No matching subscription transactions found"
            />
          </Card>
        </TabPanel>
      </PageTabs>

      <RefundDialog target={refunding} onClose={() => setRefunding(null)} />
      <ConfirmStatusDialog
        target={target}
        pending={status.isPending}
        onCancel={() => setTarget(null)}
        onConfirm={(t) =>
          status.mutate(
            { userId: t._id, action: t.isActive ? "deactivate" : "activate" },
            { onSettled: () => setTarget(null) },
          )
        }
      />
    </div>
  );
}
