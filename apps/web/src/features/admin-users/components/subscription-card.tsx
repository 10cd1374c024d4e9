import { type AdminUserDetail, subscriptionStatusText } from "@twinline/contracts";
import { CreditCard } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { formatDate, formatMoney } from "@/lib/format";
import { planDurationLabel, renewalText, subscriptionInForce } from "../api/format";

/**
 * The user's subscription while it is in force: active, or set to cancel at the period end
 * ("Cancels at period end"); otherwise "No Active Subscription" (admin-side spec, section 4).
 */
export function SubscriptionCard({
  subscription,
}: {
  subscription: AdminUserDetail["subscription"];
}) {
  const active = subscriptionInForce(subscription);
  return (
    <Card className="p-5" data-testid="subscription-card">
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-display text-base font-semibold text-stone-900 dark:text-white">
          Subscription
        </h2>
        <CreditCard aria-hidden="true" className="size-5 text-stone-400" />
      </div>
      {active ? (
        <div className="mt-4 space-y-4">
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-display text-xl font-bold text-stone-900 dark:text-white">
              {active.plan?.name ?? "Subscription"}
            </p>
            {active.status === "active" ? (
              <Badge tone="green">Active</Badge>
            ) : active.status === "trialing" ? (
              <Badge tone="green">
                {subscriptionStatusText("trialing", active.currentPeriodEnd, formatDate)}
              </Badge>
            ) : (
              <Badge tone="yellow">Canceling</Badge>
            )}
          </div>
          {active.plan && (
            <p className="text-sm text-stone-700 dark:text-stone-300">
              <span className="font-semibold text-stone-900 dark:text-white">
                {formatMoney(active.plan.price, active.plan.currency)}
              </span>{" "}
              <span data-testid="plan-duration">{planDurationLabel(active.plan)}</span>
            </p>
          )}
          <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-stone-500 dark:text-stone-400">Current period</dt>
              <dd className="mt-0.5 text-stone-900 dark:text-white">
                {formatDate(active.currentPeriodStart)} – {formatDate(active.currentPeriodEnd)}
              </dd>
            </div>
            <div>
              <dt className="text-stone-500 dark:text-stone-400">Renewal</dt>
              <dd className="mt-0.5 text-stone-900 dark:text-white" data-testid="renewal">
                {renewalText(active)}
              </dd>
            </div>
            {active.stripeSubscriptionId && (
              <div className="sm:col-span-2">
                <dt className="text-stone-500 dark:text-stone-400">Subscription ID</dt>
                <dd className="mt-0.5 font-mono text-xs break-all text-stone-900 dark:text-white">
                  {active.stripeSubscriptionId}
                </dd>
              </div>
            )}
          </dl>
        </div>
      ) : (
        <p className="mt-6 mb-2 text-center text-sm font-medium text-stone-600 dark:text-stone-400">
          No Active Subscription
        </p>
      )}
    </Card>
  );
}
