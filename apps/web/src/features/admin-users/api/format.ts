import {
  type AdminUserDetail,
  type AdminUserListItem,
  SUBSCRIPTION_STATUS_LABELS,
} from "@twinline/contracts";

/**
 * Users list: active, trialing (a free trial, decision 0083), canceled, otherwise None
 * (admin-side spec, section 4).
 */
export function subscriptionStatusLabel(
  status: AdminUserListItem["subscription"]["status"] | null | undefined,
): "Active" | "Trialing" | "Canceled" | "None" {
  if (status === "active") return "Active";
  if (status === "trialing") return SUBSCRIPTION_STATUS_LABELS.trialing;
  if (status === "canceled") return "Canceled";
  return "None";
}

type Subscription = NonNullable<AdminUserDetail["subscription"]>;
type Plan = NonNullable<Subscription["plan"]>;

/**
 * A plan's period: weekly and daily plans by their interval; otherwise the spec's duration in
 * months (1 monthly, 3 quarterly, anything else yearly).
 */
export function planDurationLabel(
  plan: Pick<Plan, "duration" | "interval" | "intervalCount">,
): string {
  if (plan.interval === "day" || plan.interval === "week") {
    const unit = plan.interval === "day" ? "day" : "week";
    if (plan.intervalCount === 1) return unit === "day" ? "daily" : "weekly";
    return `every ${plan.intervalCount} ${unit}s`;
  }
  if (plan.duration === 1) return "monthly";
  if (plan.duration === 3) return "quarterly";
  return "yearly";
}

/** Shown while in force: active, or canceled (set to cancel, in force until the period end). */
export function subscriptionInForce(subscription: AdminUserDetail["subscription"]) {
  return subscription && subscription.status !== "inactive" ? subscription : null;
}

/** "Auto-renews" when autoRenew is on and cancelAtPeriodEnd is not; else "Cancels at period end". */
export function renewalText(
  subscription: Pick<Subscription, "autoRenew" | "cancelAtPeriodEnd">,
): "Auto-renews" | "Cancels at period end" {
  return subscription.autoRenew && !subscription.cancelAtPeriodEnd
    ? "Auto-renews"
    : "Cancels at period end";
}

export function roleLabel(role: string): "Admin" | "User" {
  return role === "admin" ? "Admin" : "User";
}
