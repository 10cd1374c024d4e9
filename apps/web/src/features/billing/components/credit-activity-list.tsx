import { useQuery } from "@tanstack/react-query";
import type { CreditMovementView } from "@twinline/contracts";
import { clsx } from "clsx";
import { useState } from "react";
import { ErrorState, LoadingState } from "@/components/ui/load-states";
import { Pager } from "@/components/ui/pager";
import { formatCount, formatDateTime } from "@/lib/format";
import { creditHistoryQuery } from "../api/billing";

const KIND_LABELS: Record<CreditMovementView["kind"], string> = {
  grant: "Welcome credits",
  purchase: "Credit purchase",
  subscription_grant: "Subscription credits",
  call_minute: "Voice call minute",
  admin_adjustment: "Adjusted by support",
  refund: "Refund",
};

const signed = (n: number) => `${n > 0 ? "+" : ""}${formatCount(n)}`;

/** Every movement of the user's credits, newest first: what, why, how many, balance after. */
export function CreditActivityList({ pageSize }: { pageSize: number }) {
  const [page, setPage] = useState(1);
  const history = useQuery(creditHistoryQuery(page, pageSize));
  if (history.isPending) return <LoadingState label="Loading credit activity" />;
  if (history.isError && !history.data) {
    return (
      <ErrorState message="Failed to load credit activity" onRetry={() => history.refetch()} />
    );
  }
  const { data, pagination } = history.data;
  if (data.length === 0) {
    return (
      <p className="px-6 py-12 text-center text-sm text-stone-600 dark:text-stone-400">
        No credit activity yet.
      </p>
    );
  }
  return (
    <div data-testid="credit-activity">
      <ul className="divide-y divide-stone-100 dark:divide-white/5">
        {data.map((movement) => (
          <li key={movement._id} className="flex items-center justify-between gap-3 px-5 py-3">
            <div className="min-w-0">
              <p className="font-medium text-stone-900 dark:text-white">
                {KIND_LABELS[movement.kind]}
              </p>
              {movement.reason ? (
                <p className="text-sm break-words text-stone-600 dark:text-stone-400">
                  {movement.reason}
                </p>
              ) : null}
              <p className="text-xs text-stone-500 dark:text-stone-400">
                {formatDateTime(movement.createdAt)}
              </p>
            </div>
            <div className="shrink-0 text-right">
              <p
                className={clsx(
                  "font-semibold tabular-nums",
                  movement.amount < 0
                    ? "text-red-700 dark:text-red-300"
                    : "text-emerald-700 dark:text-emerald-300",
                )}
              >
                {signed(movement.amount)}
              </p>
              <p className="text-xs text-stone-500 tabular-nums dark:text-stone-400">
                Balance {formatCount(movement.balanceAfter)}
              </p>
            </div>
          </li>
        ))}
      </ul>
      {pagination.pages > 1 && (
        <Pager
          page={page}
          pages={pagination.pages}
          onPage={setPage}
          disabled={history.isFetching}
          summary={`Page ${page} of ${pagination.pages}`}
        />
      )}
    </div>
  );
}
