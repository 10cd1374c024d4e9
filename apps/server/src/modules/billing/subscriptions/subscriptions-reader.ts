import type { CurrentSubscription } from "@twinline/contracts";
import type { Database } from "../../../db/client.ts";
import type { SubscriptionPlanRow, UserSubscriptionRow } from "../../../db/schema/index.ts";
import { toMajor } from "../../../lib/money.ts";
import { latestSubscriptions, toSubscriptionView } from "../../users/subscription-state.ts";

export const NO_CURRENT_SUBSCRIPTION: CurrentSubscription = {
  _id: null,
  status: "inactive",
  providerStatus: null,
  plan: null,
  price: null,
  currency: null,
  startDate: null,
  endDate: null,
  autoRenew: false,
  cancelAtPeriodEnd: false,
  stripeSubscriptionId: null,
};

export function toCurrentSubscription(
  row: UserSubscriptionRow,
  plan: SubscriptionPlanRow,
): CurrentSubscription {
  const view = toSubscriptionView({ subscription: row, plan });
  return {
    _id: row.id,
    status: view.status,
    providerStatus: row.status,
    plan: {
      _id: plan.id,
      name: plan.name,
      price: toMajor(plan.priceMinor),
      currency: plan.currency,
      interval: plan.interval,
      intervalCount: plan.intervalCount,
    },
    price: toMajor(row.priceMinor),
    currency: row.currency,
    startDate: row.currentPeriodStart.toISOString(),
    endDate: row.currentPeriodEnd.toISOString(),
    autoRenew: view.autoRenew,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    stripeSubscriptionId: row.providerSubscriptionId,
  };
}

/** A user's current (newest) subscription, as a row and as the user-side answer. */
export function createSubscriptionsReader(db: Database) {
  const newest = async (userId: string) => (await latestSubscriptions(db, [userId])).get(userId);
  return {
    async currentRow(userId: string): Promise<UserSubscriptionRow | undefined> {
      return (await newest(userId))?.subscription;
    },
    async current(userId: string): Promise<CurrentSubscription> {
      const found = await newest(userId);
      return found
        ? toCurrentSubscription(found.subscription, found.plan)
        : NO_CURRENT_SUBSCRIPTION;
    },
  };
}

export type SubscriptionsReader = ReturnType<typeof createSubscriptionsReader>;
