import type { AdminUserDetail, AdminUserListItem } from "@twinline/contracts";

/** Users list: active, canceled, otherwise None (admin-side spec, section 4). */
export function subscriptionStatusLabel(
  status: AdminUserListItem["subscription"]["status"] | null | undefined,
): "Active" | "Canceled" | "None" {
  if (status === "active") return "Active";
  if (status === "canceled") return "Canceled";
  return "None";
}

/** Plan duration in months: 1 monthly, 3 quarterly, anything else yearly. */
export function planDurationLabel(duration: number): "monthly" | "quarterly" | "yearly" {
  if (duration === 1) return "monthly";
  if (duration === 3) return "quarterly";
  return "yearly";
}

type Subscription = NonNullable<AdminUserDetail["subscription"]>;

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
