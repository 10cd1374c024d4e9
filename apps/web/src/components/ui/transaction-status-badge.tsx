import { formatMoney } from "@/lib/format";
import { Badge } from "./badge";

/** What a payment row tells of its refunds (every transaction answer carries refundedAmount). */
export interface RefundedPart {
  amount: number;
  refundedAmount: number;
  currency: string;
}

/**
 * "Refunded $10.00 of $31.99" under a payment given back in part (issue 24): the status stays
 * Success (some of the money was kept), so the row must say how much went back. Nothing for a
 * payment refunded in whole (its status says Refunded) or not at all.
 */
export function RefundedNote({ payment }: { payment: RefundedPart }) {
  const { amount, refundedAmount, currency } = payment;
  if (!(refundedAmount > 0) || refundedAmount >= amount) return null;
  return (
    <span className="text-xs text-stone-600 dark:text-stone-300" data-testid="refunded-part">
      Refunded {formatMoney(refundedAmount, currency)} of {formatMoney(amount, currency)}
    </span>
  );
}

/**
 * A payment's status as both admin areas show it (admin-side spec, section 4), capitalised:
 * success and credited (account credit, docs/decisions/0034) green, pending yellow, anything else
 * red. A failed payment's reason (a decline, a paid amount that differs from the price) shows
 * below (docs/decisions/0036), and so does a refund in part.
 */
export function TransactionStatusBadge({
  status,
  reason,
  payment,
}: {
  status: string;
  reason?: string | null | undefined;
  payment?: RefundedPart | undefined;
}) {
  const tone =
    status === "success" || status === "credited"
      ? "green"
      : status === "pending"
        ? "yellow"
        : "red";
  const label = status ? `${status[0]?.toUpperCase()}${status.slice(1)}` : "Unknown";
  const badge = <Badge tone={tone}>{label}</Badge>;
  const refunded = payment ? <RefundedNote payment={payment} /> : null;
  if (!reason && !refunded) return badge;
  return (
    <span className="inline-flex max-w-56 flex-col items-start gap-1">
      {badge}
      {reason ? (
        <span className="text-xs text-red-700 dark:text-red-300" data-testid="failure-reason">
          {reason}
        </span>
      ) : null}
      {refunded}
    </span>
  );
}
