import type { AdminUserDetail } from "@twinline/contracts";
import { Coins, Play, XCircle } from "lucide-react";
import { useState } from "react";
import { buttonClasses } from "@/components/ui/button";
import { formatDate } from "@/lib/format";
import { AdjustCreditsDialog } from "./adjust-credits-dialog";
import { type SubscriptionAction, SubscriptionActionDialog } from "./subscription-action-dialog";

/**
 * The operator's money tools on the user details page (issue 16): change credits, and cancel
 * or resume the subscription. Refunds are on each payment of the transaction tabs.
 */
export function MoneyActions({ user }: { user: AdminUserDetail }) {
  const [adjusting, setAdjusting] = useState(false);
  const [action, setAction] = useState<SubscriptionAction | null>(null);
  const subscription = user.subscription;
  // Set to cancel and its period not over yet (an ended one may keep the flag).
  const canceling =
    subscription?.cancelAtPeriodEnd === true &&
    Date.parse(subscription.currentPeriodEnd ?? "") > Date.now();
  const inForce =
    subscription !== null &&
    (subscription.status === "active" || subscription.status === "trialing" || canceling);
  const small = buttonClasses("secondary", "sm");
  return (
    <div className="flex flex-wrap gap-2" data-testid="money-actions">
      <button type="button" className={small} onClick={() => setAdjusting(true)}>
        <Coins aria-hidden="true" className="size-4" />
        Change credits
      </button>
      {inForce && !canceling && (
        <button type="button" className={small} onClick={() => setAction("cancel_period_end")}>
          <XCircle aria-hidden="true" className="size-4" />
          Cancel at period end
        </button>
      )}
      {inForce && canceling && (
        <button type="button" className={small} onClick={() => setAction("resume")}>
          <Play aria-hidden="true" className="size-4" />
          Resume subscription
        </button>
      )}
      {inForce && (
        <button type="button" className={small} onClick={() => setAction("cancel_now")}>
          <XCircle aria-hidden="true" className="size-4" />
          Cancel now
        </button>
      )}
      <AdjustCreditsDialog user={user} open={adjusting} onClose={() => setAdjusting(false)} />
      <SubscriptionActionDialog
        userId={user._id}
        userName={user.name}
        periodEnd={formatDate(subscription?.currentPeriodEnd ?? null)}
        action={action}
        onClose={() => setAction(null)}
      />
    </div>
  );
}
