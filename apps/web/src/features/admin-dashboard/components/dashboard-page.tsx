import { useQuery } from "@tanstack/react-query";
import type { AdminDashboardMetrics } from "@twinline/contracts";
import { clsx } from "clsx";
import type { LucideIcon } from "lucide-react";
import {
  CalendarClock,
  CalendarDays,
  CalendarRange,
  CreditCard,
  DollarSign,
  PhoneCall,
  UserPlus,
  Users,
} from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/load-states";
import { MoneyFigure } from "@/components/ui/money-figure";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { formatCount, formatMoney } from "@/lib/format";
import { adminMetricsQuery, adminSeriesQuery, type SeriesDays } from "../api/dashboard";

const SeriesCharts = lazy(() => import("./series-charts"));

export const DASHBOARD_TEXT = { loadFailed: "Failed to load dashboard metrics" } as const;

type Key = keyof AdminDashboardMetrics;
interface CardSpec {
  key: Key;
  label: string;
  icon: LucideIcon;
  /** A count or percent; money cards show their currencies (MoneyFigure) instead. */
  format: ((value: number) => string) | "money";
}

const count = formatCount;
const percent = (value: number) => `${formatCount(value)}%`;

const MAIN: CardSpec[] = [
  { key: "totalUsers", label: "Total Users", icon: Users, format: count },
  { key: "totalRevenue", label: "Total Revenue", icon: DollarSign, format: "money" },
  { key: "totalPaidUsers", label: "Total Paid Users", icon: CreditCard, format: count },
  { key: "conversionRate", label: "Call Conversions", icon: PhoneCall, format: percent },
];

const periods = (kind: "Users" | "Revenue", format: CardSpec["format"]): CardSpec[] => [
  { key: `today${kind}`, label: `Today's ${kind}`, icon: UserPlus, format },
  { key: `yesterday${kind}`, label: `Yesterday's ${kind}`, icon: CalendarClock, format },
  { key: `thisMonth${kind}`, label: `This Month's ${kind}`, icon: CalendarDays, format },
  { key: `lastMonth${kind}`, label: `Last Month's ${kind}`, icon: CalendarRange, format },
];

function MetricCards({
  cards,
  data,
  pending,
  testId,
}: {
  cards: CardSpec[];
  data: AdminDashboardMetrics | undefined;
  pending: boolean;
  testId: string;
}) {
  return (
    <ul className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 xl:grid-cols-4">
      {cards.map(({ key, label, icon: Icon, format }) => (
        <li key={key}>
          <Card className="flex h-full items-start justify-between gap-2 p-4" data-testid={testId}>
            <div className="min-w-0">
              <p className="text-sm font-medium text-stone-500 dark:text-stone-400">{label}</p>
              {pending && key !== "totalRevenue" ? (
                <Skeleton className="mt-2 h-7 w-16" />
              ) : (
                <p className="mt-1 font-display text-2xl font-bold break-all text-stone-900 dark:text-white">
                  {/* Total Revenue reads $0.00 until loaded (admin-side spec). */}
                  {!data ? (
                    key === "totalRevenue" ? (
                      formatMoney(0, "usd")
                    ) : (
                      "—"
                    )
                  ) : format === "money" ? (
                    <MoneyFigure metric={data[key]} />
                  ) : (
                    format(data[key].value)
                  )}
                </p>
              )}
            </div>
            <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-500/10 dark:text-brand-300">
              <Icon aria-hidden="true" className="size-5" />
            </span>
          </Card>
        </li>
      ))}
    </ul>
  );
}

/** /admin/dashboard: the figures of the admin-side spec and the daily charts. */
export function AdminDashboardPage() {
  const metrics = useQuery(adminMetricsQuery());
  const [days, setDays] = useState<SeriesDays>(30);
  const series = useQuery(adminSeriesQuery(days));

  useDocumentTitle("Dashboard · Twinline Admin");

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Dashboard"
        description="Users, revenue and voice calls at a glance; refreshed every 5 minutes."
      />
      {metrics.isError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {DASHBOARD_TEXT.loadFailed}
        </p>
      )}
      <section aria-label="Overview">
        <MetricCards
          cards={MAIN}
          data={metrics.data}
          pending={metrics.isPending}
          testId="metric-card"
        />
      </section>
      <section aria-labelledby="user-growth-title" className="space-y-3">
        <h2
          id="user-growth-title"
          className="font-display text-lg font-semibold text-stone-900 dark:text-white"
        >
          User Growth
        </h2>
        <MetricCards
          cards={periods("Users", count)}
          data={metrics.data}
          pending={metrics.isPending}
          testId="growth-card"
        />
      </section>
      <section aria-labelledby="revenue-title" className="space-y-3">
        <h2
          id="revenue-title"
          className="font-display text-lg font-semibold text-stone-900 dark:text-white"
        >
          Revenue Analytics
        </h2>
        <MetricCards
          cards={periods("Revenue", "money")}
          data={metrics.data}
          pending={metrics.isPending}
          testId="revenue-card"
        />
      </section>
      <section aria-labelledby="trends-title" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2
            id="trends-title"
            className="font-display text-lg font-semibold text-stone-900 dark:text-white"
          >
            Trends
          </h2>
          <fieldset className="inline-flex rounded-full border border-stone-300 p-0.5 dark:border-white/15">
            <legend className="sr-only">Period</legend>
            {([30, 90] as const).map((value) => (
              <button
                key={value}
                type="button"
                aria-pressed={days === value}
                onClick={() => setDays(value)}
                className={clsx(
                  "rounded-full px-3 py-1 text-sm font-medium transition",
                  days === value
                    ? "bg-brand-600 text-white"
                    : "text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-white/10",
                )}
              >
                {value} days
              </button>
            ))}
          </fieldset>
        </div>
        {series.isError && !series.data ? (
          <ErrorState message="Failed to load the charts" onRetry={() => series.refetch()} />
        ) : series.data ? (
          <Suspense fallback={<Skeleton className="h-64 w-full" />}>
            <SeriesCharts points={series.data.points} />
          </Suspense>
        ) : (
          <Skeleton className="h-64 w-full" />
        )}
      </section>
    </div>
  );
}
