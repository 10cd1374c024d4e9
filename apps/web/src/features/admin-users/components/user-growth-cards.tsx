import { useQuery } from "@tanstack/react-query";
import type { UserGrowth } from "@twinline/contracts";
import type { LucideIcon } from "lucide-react";
import { CalendarClock, CalendarDays, CalendarRange, UserPlus } from "lucide-react";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { formatCount } from "@/lib/format";
import { userGrowthQuery } from "../api/users";

const CARDS: { key: keyof UserGrowth; label: string; icon: LucideIcon }[] = [
  { key: "todayUsers", label: "Today's Users", icon: UserPlus },
  { key: "yesterdayUsers", label: "Yesterday's Users", icon: CalendarClock },
  { key: "thisMonthUsers", label: "This Month's Users", icon: CalendarDays },
  { key: "lastMonthUsers", label: "Last Month's Users", icon: CalendarRange },
];

/** The four user-growth figures (today, yesterday, this month, last month). */
export function UserGrowthCards() {
  const growth = useQuery(userGrowthQuery());
  return (
    <section aria-labelledby="user-growth-heading">
      <h2 id="user-growth-heading" className="sr-only">
        User Growth
      </h2>
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {CARDS.map(({ key, label, icon: Icon }) => (
          <li key={key}>
            <Card
              className="flex h-full items-start justify-between gap-2 p-4"
              data-testid="user-growth-card"
            >
              <div className="min-w-0">
                <p className="text-xs font-medium text-stone-500 sm:text-sm dark:text-stone-400">
                  {label}
                </p>
                {growth.isPending ? (
                  <Skeleton className="mt-2 h-7 w-12" />
                ) : (
                  <p className="mt-1 font-display text-2xl font-bold text-stone-900 dark:text-white">
                    {growth.data ? formatCount(growth.data[key].value) : "—"}
                  </p>
                )}
              </div>
              <span className="hidden size-9 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600 sm:inline-flex dark:bg-brand-500/10 dark:text-brand-300">
                <Icon aria-hidden="true" className="size-5" />
              </span>
            </Card>
          </li>
        ))}
      </ul>
      {growth.isError && (
        <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          Failed to load dashboard metrics
        </p>
      )}
    </section>
  );
}
