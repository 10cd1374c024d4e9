import { useQuery } from "@tanstack/react-query";
import { clsx } from "clsx";
import { CalendarDays, TrendingUp } from "lucide-react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { MoneyFigure } from "@/components/ui/money-figure";
import { Skeleton } from "@/components/ui/skeleton";
import { UserAvatar } from "@/components/ui/user-avatar";
import { type RevenueKind, revenueQuery } from "../api/transactions";

function capitalise(value: string): string {
  return value ? `${value[0]?.toUpperCase()}${value.slice(1)}` : "Unknown";
}

const EVENT_TONES: Record<string, BadgeTone> = {
  active: "green",
  trialing: "green",
  canceled: "red",
  past_due: "yellow",
  unpaid: "brand",
  incomplete: "grey",
};

/** Active green, canceled red, past_due yellow, unpaid light red, incomplete grey, others blue. */
export function SubscriptionStatusBadge({ status }: { status: string }) {
  return <Badge tone={EVENT_TONES[status] ?? "blue"}>{capitalise(status.replace("_", " "))}</Badge>;
}

/**
 * A cell's text cut to a width with an ellipsis; the full text is its tooltip and is what a
 * selection copies. Lets the transaction tables keep every column on a 1280 px screen with the
 * sidebar open without breaking names or ids mid-word.
 */
export function Truncated({ text, className }: { text: string; className?: string }) {
  return (
    <span title={text} className={clsx("block truncate", className)}>
      {text}
    </span>
  );
}

/** The user of a row: avatar, name and e-mail, each on one line (cut with an ellipsis). */
export function UserCell({
  user,
}: {
  user: { name: string; email: string; profileImage: string | null } | null | undefined;
}) {
  if (!user) return <span className="text-stone-500 dark:text-stone-400">Deleted user</span>;
  return (
    <span className="flex items-center gap-2.5">
      <UserAvatar name={user.name} email={user.email} image={user.profileImage} />
      <span className="min-w-0">
        <Truncated
          text={user.name}
          className="max-w-40 font-medium text-stone-900 dark:text-white"
        />
        <Truncated
          text={user.email}
          className="max-w-40 text-xs text-stone-500 dark:text-stone-400"
        />
      </span>
    </span>
  );
}

const REVENUE = [
  { key: "todayRevenue", label: "Today's Revenue" },
  { key: "yesterdayRevenue", label: "Yesterday's Revenue" },
  { key: "thisMonthRevenue", label: "This Month's Revenue" },
  { key: "lastMonthRevenue", label: "Last Month's Revenue" },
] as const;

/** Revenue Analytics: today, yesterday, this month and last month (USD, other currencies beside). */
export function RevenueCards({ kind }: { kind: RevenueKind }) {
  const revenue = useQuery(revenueQuery(kind));
  return (
    <section aria-label="Revenue Analytics" className="space-y-3">
      <h2 className="font-display text-lg font-semibold text-stone-900 dark:text-white">
        Revenue Analytics
      </h2>
      <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
        {REVENUE.map(({ key, label }, i) => (
          <Card key={key} className="p-4" data-testid="revenue-card">
            <p className="flex items-center gap-2 text-sm text-stone-600 dark:text-stone-400">
              {i < 2 ? (
                <TrendingUp aria-hidden="true" className="size-4" />
              ) : (
                <CalendarDays aria-hidden="true" className="size-4" />
              )}
              {label}
            </p>
            {revenue.isPending ? (
              <Skeleton className="mt-2 h-7 w-24" />
            ) : (
              <p className="mt-1 font-display text-2xl font-bold text-stone-900 tabular-nums dark:text-white">
                {revenue.isError ? "—" : <MoneyFigure metric={revenue.data[key]} />}
              </p>
            )}
          </Card>
        ))}
      </div>
    </section>
  );
}
