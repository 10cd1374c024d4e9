import { useQuery } from "@tanstack/react-query";
import { Download, LifeBuoy } from "lucide-react";
import { useState } from "react";
import toast from "react-hot-toast";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/load-states";
import { Skeleton } from "@/components/ui/skeleton";
import { csvFileName, downloadFile } from "@/lib/csv";
import { formatCount } from "@/lib/format";
import {
  CRISIS_REFERRAL_DAYS,
  crisisReferralsQuery,
  exportCrisisReferrals,
} from "../api/analytics";

/**
 * Crisis referrals per UTC day (issue 25, item 3): how often the caring message was given, with
 * no personal data; the CSV is the figure a yearly report to a state office needs.
 */
export function CrisisReferralsCard() {
  const referrals = useQuery(crisisReferralsQuery());
  const [exporting, setExporting] = useState(false);
  const data = referrals.data?.data;
  const withReferrals = data?.days.filter((day) => day.referrals > 0) ?? [];

  const onExport = async () => {
    setExporting(true);
    try {
      downloadFile.save(csvFileName("crisis-referrals"), await exportCrisisReferrals());
      toast.success("Crisis referrals exported to CSV");
    } catch {
      toast.error("Failed to export crisis referrals");
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card className="p-4" data-testid="crisis-referrals">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="flex items-center gap-2 text-sm font-medium text-stone-500 dark:text-stone-400">
            <LifeBuoy aria-hidden="true" className="size-4" />
            Crisis referrals, last {CRISIS_REFERRAL_DAYS} days (UTC)
          </h2>
          {referrals.isPending ? (
            <Skeleton className="mt-2 h-7 w-16" />
          ) : data ? (
            <p className="mt-1 font-display text-2xl font-bold text-stone-900 dark:text-white">
              {formatCount(data.total)}
            </p>
          ) : null}
          <p className="mt-1 text-xs text-stone-500 dark:text-stone-400">
            Times the crisis message was given. Counts only: no names, no messages.
          </p>
        </div>
        <button
          type="button"
          onClick={() => void onExport()}
          disabled={exporting}
          className={buttonClasses("secondary", "sm")}
        >
          <Download aria-hidden="true" className="size-4" />
          {exporting ? "Exporting..." : "Export CSV"}
        </button>
      </div>
      {referrals.isError ? (
        <div className="mt-3">
          <ErrorState
            message="Failed to load crisis referrals"
            onRetry={() => referrals.refetch()}
          />
        </div>
      ) : data && withReferrals.length > 0 ? (
        <table className="mt-3 text-sm">
          <caption className="sr-only">Crisis referrals per day</caption>
          <thead>
            <tr className="text-left text-xs text-stone-500 dark:text-stone-400">
              <th scope="col" className="pr-6 font-medium">
                Date (UTC)
              </th>
              <th scope="col" className="font-medium">
                Referrals
              </th>
            </tr>
          </thead>
          <tbody>
            {withReferrals.map((day) => (
              <tr key={day.date}>
                <td className="pr-6 tabular-nums">{day.date}</td>
                <td className="tabular-nums">{day.referrals}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : data ? (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
          No crisis referrals in this period.
        </p>
      ) : null}
    </Card>
  );
}
