import { Badge } from "./badge";

/**
 * A payment's status as both admin areas show it (admin-side spec, section 4), capitalised:
 * success and credited (account credit, docs/decisions/0034) green, pending yellow, anything else
 * red. A failed payment's reason (a decline, a paid amount that differs from the price) shows
 * below (docs/decisions/0036).
 */
export function TransactionStatusBadge({
  status,
  reason,
}: {
  status: string;
  reason?: string | null | undefined;
}) {
  const tone =
    status === "success" || status === "credited"
      ? "green"
      : status === "pending"
        ? "yellow"
        : "red";
  const label = status ? `${status[0]?.toUpperCase()}${status.slice(1)}` : "Unknown";
  const badge = <Badge tone={tone}>{label}</Badge>;
  if (!reason) return badge;
  return (
    <span className="inline-flex max-w-56 flex-col items-start gap-1">
      {badge}
      <span className="text-xs text-red-700 dark:text-red-300" data-testid="failure-reason">
        {reason}
      </span>
    </span>
  );
}
