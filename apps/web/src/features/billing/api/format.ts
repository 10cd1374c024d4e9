import { trialDaysOffered } from "@twinline/contracts";
import { formatMoney } from "@/lib/format";

/** "month", "3 months", "year". */
export function intervalLabel(interval: string, count: number): string {
  return count === 1 ? interval : `${count} ${interval}s`;
}

/** Upgrade if the new price is higher, downgrade if lower, otherwise change (user-side spec, 4). */
export function planChangeKind(currentPrice: number, nextPrice: number) {
  if (nextPrice > currentPrice) return "upgrade" as const;
  if (nextPrice < currentPrice) return "downgrade" as const;
  return "change" as const;
}

/** Success green, pending yellow, anything else red, shown capitalised. */
export function statusTone(status: string): "green" | "yellow" | "red" {
  return status === "success" || status === "credited"
    ? "green"
    : status === "pending"
      ? "yellow"
      : "red";
}

export function capitalise(value: string): string {
  return value ? `${value[0]?.toUpperCase()}${value.slice(1)}` : value;
}

/**
 * The price a plan's card shows after its free trial (decision 0083): "then $9.99/month", or
 * "then $24.99 every 3 months"; the money through lib/format like every price.
 */
export function priceAfterTrial(plan: {
  price: number;
  currency: string;
  interval: string;
  intervalCount: number;
}): string {
  const price = formatMoney(plan.price, plan.currency);
  return plan.intervalCount === 1
    ? `then ${price}/${plan.interval}`
    : `then ${price} every ${intervalLabel(plan.interval, plan.intervalCount)}`;
}

/**
 * The free trial days a checkout of this plan would give this fan (the one rule,
 * trialDaysOffered): the my-subscription answer has no `_id` exactly when they never had one.
 */
export function trialDaysFor(
  plan: { trialDays: number },
  current: { _id: string | null } | null,
): number {
  return trialDaysOffered(plan.trialDays, current !== null && current._id !== null);
}
