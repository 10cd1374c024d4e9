import type { SubscriptionAnalytics } from "@twinline/contracts";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  payments as paymentsTable,
  subscriptionPlans,
  userSubscriptions,
} from "../../../db/schema/index.ts";
import { toMajor } from "../../../lib/money.ts";
import {
  isOpenSubscriptionSql,
  OPEN_SUBSCRIPTION_STATUSES,
} from "../../users/subscription-state.ts";

/** The admin's subscription figures: plans, subscriptions by status, revenue by currency. */
export async function analytics({ db }: { db: Database }): Promise<SubscriptionAnalytics> {
  const plans = await db
    .select()
    .from(subscriptionPlans)
    .where(isNull(subscriptionPlans.deletedAt));
  const byStatus = await db
    .select({ status: userSubscriptions.status, n: count() })
    .from(userSubscriptions)
    .groupBy(userSubscriptions.status);
  const perPlan = await db
    .select({ planId: userSubscriptions.planId, n: count() })
    .from(userSubscriptions)
    .where(isOpenSubscriptionSql())
    .groupBy(userSubscriptions.planId);
  const revenuePerPlan = await db
    .select({
      planId: paymentsTable.planId,
      currency: paymentsTable.currency,
      total: sql<number>`coalesce(sum(${paymentsTable.amountMinor}), 0)::bigint`,
    })
    .from(paymentsTable)
    .where(and(eq(paymentsTable.kind, "subscription"), eq(paymentsTable.status, "success")))
    .groupBy(paymentsTable.planId, paymentsTable.currency);
  const statusCount = (status: string) => byStatus.find((row) => row.status === status)?.n ?? 0;
  const revenueByCurrency = new Map<string, number>();
  for (const row of revenuePerPlan) {
    revenueByCurrency.set(
      row.currency,
      (revenueByCurrency.get(row.currency) ?? 0) + Number(row.total),
    );
  }
  return {
    totalPlans: plans.length,
    activePlans: plans.filter((plan) => plan.isActive).length,
    activeSubscriptions: OPEN_SUBSCRIPTION_STATUSES.reduce(
      (sum, status) => sum + statusCount(status),
      0,
    ),
    canceledSubscriptions: statusCount("canceled"),
    pastDueSubscriptions: statusCount("past_due"),
    revenue: [...revenueByCurrency].map(([currency, total]) => ({
      currency: currency as SubscriptionAnalytics["revenue"][number]["currency"],
      amount: toMajor(total),
    })),
    plans: plans.map((plan) => ({
      _id: plan.id,
      name: plan.name,
      activeSubscriptions: perPlan.find((row) => row.planId === plan.id)?.n ?? 0,
      revenue: toMajor(
        revenuePerPlan
          .filter((row) => row.planId === plan.id)
          .reduce((sum, row) => sum + Number(row.total), 0),
      ),
      currency: plan.currency,
    })),
  };
}
