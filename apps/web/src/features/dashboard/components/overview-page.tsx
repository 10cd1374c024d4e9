import { useQuery } from "@tanstack/react-query";
import { isSubscribed, subscriptionStatusText } from "@twinline/contracts";
import { clsx } from "clsx";
import type { LucideIcon } from "lucide-react";
import { Coins, Crown, MessageCircle, Phone, RotateCw, ShoppingCart, Sparkles } from "lucide-react";
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { Link } from "react-router";
import { AiMarker } from "@/components/ui/ai-marker";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { LowBalanceNotice } from "@/components/ui/low-balance-notice";
import { Section } from "@/components/ui/section";
import { Skeleton } from "@/components/ui/skeleton";
import { TableScroll } from "@/components/ui/table-scroll";
import { useAuth, useCurrentUser } from "@/lib/auth/auth-provider";
import { formatCount, formatDate, formatDuration, formatMoney } from "@/lib/format";
import { useSettings } from "@/lib/settings";
import { dashboardMetricsQuery, daysSince } from "../api/metrics";

// Recharts is heavy: only the overview downloads it, after its figures.
const CreditUseChart = lazy(() => import("./credit-use-chart"));

export const OVERVIEW_TEXT = {
  loadFailedInline: "Failed to load dashboard metrics",
  loadFailedToast: "Failed to load dashboard data",
  refreshFailedTitle: "Refresh failed",
  refreshFailedText: "Could not refresh your data. Please try again.",
} as const;

/**
 * The calls card's line: the exact talk time ("1m 23s") and the minutes billed, which count each
 * call's started minutes and so may be more (issue 24: 83 s over three calls bills three).
 */
export function talkTime(calls: { totalDuration: number; minutesBilled: number }): string {
  const time = `Total talk time: ${formatDuration(calls.totalDuration, { withSeconds: true })}`;
  if (calls.minutesBilled === 0) return time;
  return `${time} · ${calls.minutesBilled} ${calls.minutesBilled === 1 ? "minute" : "minutes"} billed`;
}

function StatCard({
  title,
  icon: Icon,
  tone,
  loading,
  value,
  detail,
  action,
  testId,
}: {
  title: string;
  icon: LucideIcon;
  tone: string;
  loading: boolean;
  value: ReactNode;
  detail?: ReactNode;
  action?: ReactNode;
  testId: string;
}) {
  return (
    <Card className="flex flex-col p-5" data-testid={testId}>
      <div className="flex items-center gap-3">
        <span className={clsx("flex size-10 items-center justify-center rounded-2xl", tone)}>
          <Icon aria-hidden="true" className="size-5" />
        </span>
        <h2 className="text-sm font-medium text-stone-600 dark:text-stone-400">{title}</h2>
      </div>
      {loading ? (
        <Skeleton className="mt-4 h-9 w-24" />
      ) : (
        <p className="mt-4 font-display text-3xl font-bold break-words text-stone-900 dark:text-white">
          {value}
        </p>
      )}
      {detail && !loading && (
        <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">{detail}</p>
      )}
      {action && <div className="mt-auto pt-4">{action}</div>}
    </Card>
  );
}

function SummaryRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2.5">
      <dt className="text-sm text-stone-500 dark:text-stone-400">{label}</dt>
      <dd className="text-sm font-medium text-stone-900 dark:text-white">{children}</dd>
    </div>
  );
}

/**
 * /dashboard: the overview of the user-side spec (section 2). `onSubscribe` opens the
 * subscription dialog (the route composes it from the billing feature).
 */
export function OverviewPage({ onSubscribe }: { onSubscribe: () => void }) {
  const user = useCurrentUser();
  const { refreshUser } = useAuth();
  const { settings } = useSettings();
  const metrics = useQuery(dashboardMetricsQuery());
  const [refreshing, setRefreshing] = useState(false);
  const firstName = user.name.trim().split(/\s+/)[0] || "there";

  // The toast once per failure, not on every render.
  const toastedFor = useRef(0);
  useEffect(() => {
    if (metrics.isError && toastedFor.current !== metrics.errorUpdatedAt) {
      toastedFor.current = metrics.errorUpdatedAt;
      toast.error(OVERVIEW_TEXT.loadFailedToast, { id: "dashboard-load" });
    }
  }, [metrics.isError, metrics.errorUpdatedAt]);

  const refresh = async () => {
    setRefreshing(true);
    try {
      const [result] = await Promise.all([metrics.refetch(), refreshUser({ force: true })]);
      if (result.isError) throw result.error;
    } catch {
      toast.error(
        <span>
          <strong className="block">{OVERVIEW_TEXT.refreshFailedTitle}</strong>
          {OVERVIEW_TEXT.refreshFailedText}
        </span>,
        { id: "dashboard-refresh" },
      );
    } finally {
      setRefreshing(false);
    }
  };

  const data = metrics.data;
  const loading = metrics.isPending;
  const subscription = data?.user.subscription ?? user.subscription;
  // Canceling (set to cancel at the period end) is still a subscriber until then.
  const subscribed = isSubscribed(subscription.status);
  const credits = data?.user.credits ?? user.credits;
  const remaining = data?.messages.remaining;
  const memberSince = data?.user.createdAt ?? user.createdAt;

  return (
    <div className="space-y-6">
      <section
        aria-labelledby="welcome-title"
        className="overflow-hidden rounded-3xl bg-gradient-to-br from-brand-600 via-rose-600 to-orange-500 p-6 text-white shadow-xl shadow-brand-900/15 sm:p-8"
      >
        <h1 id="welcome-title" className="font-display text-2xl font-bold sm:text-3xl">
          Welcome back, {firstName}!
        </h1>
        <p className="mt-2 max-w-xl text-white/90" data-testid="promo-banner">
          {settings.aiProfile.promotionalMessage.trim() ||
            `${settings.aiProfile.name} is ready when you are.`}
        </p>
        <p className="mt-3 text-sm font-medium text-white/90" data-testid="dashboard-persona">
          You are talking with {settings.aiProfile.name}
          <AiMarker tone="onDark" />
        </p>
      </section>

      <LowBalanceNotice credits={credits} creditsPerMinute={settings.creditsPerMinute} />

      {metrics.isError && (
        <p
          role="alert"
          className="rounded-2xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
        >
          {OVERVIEW_TEXT.loadFailedInline}
        </p>
      )}

      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          testId="card-credits"
          title="Credit Balance"
          icon={Coins}
          tone="bg-amber-100 text-amber-700 dark:bg-amber-500/15 dark:text-amber-300"
          loading={false}
          value={<span data-testid="credit-balance">{formatCount(credits)}</span>}
          detail={`${settings.creditsPerMinute} credits per minute of voice call`}
          action={
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                onClick={refresh}
                disabled={refreshing}
                className={buttonClasses("secondary", "sm")}
              >
                <RotateCw
                  aria-hidden="true"
                  className={clsx("size-4", refreshing && "animate-spin")}
                />
                Refresh
              </button>
              <Link to="/dashboard/credits" className={buttonClasses("ghost", "sm")}>
                Buy credits
              </Link>
            </div>
          }
        />
        <StatCard
          testId="card-calls"
          title="Voice Calls"
          icon={Phone}
          tone="bg-sky-100 text-sky-700 dark:bg-sky-500/15 dark:text-sky-300"
          loading={loading}
          value={data ? formatCount(data.calls.total) : "—"}
          detail={data ? talkTime(data.calls) : null}
        />
        <StatCard
          testId="card-messages"
          title="Messages Sent"
          icon={MessageCircle}
          tone="bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300"
          loading={loading}
          value={data ? formatCount(data.messages.total) : "—"}
          detail={
            remaining === undefined
              ? null
              : remaining === "unlimited"
                ? "Unlimited messages"
                : `${remaining} free ${remaining === 1 ? "message" : "messages"} remaining today`
          }
        />
        <StatCard
          testId="card-subscription"
          title="Subscription"
          icon={Crown}
          tone="bg-brand-100 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300"
          loading={loading}
          value={subscriptionStatusText(subscription.status, subscription.endDate, formatDate)}
          detail={subscription.planName ?? "No plan"}
          action={
            !subscribed && (
              <button
                type="button"
                onClick={onSubscribe}
                className={buttonClasses("primary", "sm")}
              >
                Subscribe now
              </button>
            )
          }
        />
      </div>

      <Section title="Quick Actions">
        <div className="flex flex-wrap gap-3">
          <Link to="/dashboard/call" className={buttonClasses("primary", "md")}>
            <Phone aria-hidden="true" className="size-4" /> Start Voice Call
          </Link>
          <Link to="/dashboard/chat" className={buttonClasses("secondary", "md")}>
            <MessageCircle aria-hidden="true" className="size-4" /> Send Message
          </Link>
          <Link to="/dashboard/credits" className={buttonClasses("secondary", "md")}>
            <ShoppingCart aria-hidden="true" className="size-4" /> Buy Credits
          </Link>
          {!subscribed && (
            <button
              type="button"
              onClick={onSubscribe}
              className={buttonClasses("secondary", "md")}
            >
              <Sparkles aria-hidden="true" className="size-4" /> Subscribe Now
            </button>
          )}
        </div>
      </Section>

      <div className="grid gap-4 lg:grid-cols-2">
        <Section title="Account Summary">
          <dl className="divide-y divide-stone-200 dark:divide-white/10">
            <SummaryRow label="Account type">{subscribed ? "Premium" : "Free"}</SummaryRow>
            <SummaryRow label="Member since">
              {formatDate(memberSince)} ({daysSince(memberSince)} days)
            </SummaryRow>
            <SummaryRow label="Credit usage">
              {loading ? (
                <Skeleton className="h-4 w-16" />
              ) : data ? (
                `${formatCount(data.creditUsage.total)} credits used`
              ) : (
                "—"
              )}
            </SummaryRow>
            <SummaryRow label="Last activity">
              {loading ? (
                <Skeleton className="h-4 w-16" />
              ) : (
                formatDate(data?.lastActivity, "Never")
              )}
            </SummaryRow>
          </dl>
        </Section>

        <Section title="Credit use, last 30 days">
          {data ? (
            data.creditUsage.daily.some((d) => d.credits > 0) ? (
              <Suspense fallback={<Skeleton className="h-48 w-full" />}>
                <CreditUseChart daily={data.creditUsage.daily} />
              </Suspense>
            ) : (
              <p className="py-12 text-center text-sm text-stone-500 dark:text-stone-400">
                No credits used in the last 30 days
              </p>
            )
          ) : (
            <Skeleton className="h-48 w-full" />
          )}
        </Section>
      </div>

      <Section
        title="Recent Transactions"
        aside={
          <Link to="/dashboard/transactions" className={buttonClasses("ghost", "sm")}>
            View All
          </Link>
        }
      >
        {loading ? (
          <Skeleton className="h-24 w-full" />
        ) : data && data.creditUsage.recent.length > 0 ? (
          <TableScroll label="Recent transactions">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Recent transactions</caption>
              <thead className="text-stone-500 dark:text-stone-400">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Credits
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Amount
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Status
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-200 dark:divide-white/10">
                {data.creditUsage.recent.map((row) => (
                  <tr
                    key={`${row.transactionDate}-${row.credits}`}
                    data-testid="recent-transaction"
                  >
                    <td className="py-2.5 pr-4">{formatDate(row.transactionDate)}</td>
                    <td className="py-2.5 pr-4 tabular-nums">{formatCount(row.credits)}</td>
                    <td className="py-2.5 pr-4 tabular-nums">
                      {formatMoney(row.amount, row.currency)}
                    </td>
                    <td className="py-2.5">
                      <span className="rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-medium text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
                        Completed
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : (
          <p className="py-8 text-center text-sm text-stone-500 dark:text-stone-400">
            No transactions yet
          </p>
        )}
      </Section>
    </div>
  );
}
