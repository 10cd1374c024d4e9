import { and, asc, eq, gt, lte } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { subscriptionPlans, userSubscriptions } from "../../db/schema/index.ts";
import { enqueueRenewalReminder } from "./enqueue.ts";

/** The reminder goes this long before a yearly plan renews (issue 26: 7 days). */
export const RENEWAL_REMINDER_DAYS = 7;
const DAY_MS = 24 * 60 * 60_000;
const BATCH = 500;

/**
 * Queues the reminder of every yearly subscription that renews within RENEWAL_REMINDER_DAYS of
 * `now` (by the billing clock) and is not set to cancel: once per subscription and period (the
 * key names the period end), however often the sweep runs. The amount is what the subscription
 * is billed at (existing subscribers keep their price: docs/decisions/0067).
 */
export async function queueRenewalReminders(db: Database, now: Date): Promise<number> {
  const horizon = new Date(now.getTime() + RENEWAL_REMINDER_DAYS * DAY_MS);
  const due = await db
    .select({
      id: userSubscriptions.id,
      userId: userSubscriptions.userId,
      periodEnd: userSubscriptions.currentPeriodEnd,
      priceMinor: userSubscriptions.priceMinor,
      currency: userSubscriptions.currency,
      planName: subscriptionPlans.name,
    })
    .from(userSubscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, userSubscriptions.planId))
    .where(
      and(
        eq(userSubscriptions.status, "active"),
        gt(userSubscriptions.currentPeriodEnd, now),
        lte(userSubscriptions.currentPeriodEnd, horizon),
        eq(userSubscriptions.cancelAtPeriodEnd, false),
        eq(subscriptionPlans.interval, "year"),
      ),
    )
    .orderBy(asc(userSubscriptions.currentPeriodEnd))
    .limit(BATCH);
  let queued = 0;
  for (const row of due) {
    const added = await enqueueRenewalReminder(db, row.userId, row.id, {
      planName: row.planName,
      amountMinor: row.priceMinor,
      currency: row.currency,
      renewsAt: row.periodEnd.toISOString(),
    });
    if (added) queued += 1;
  }
  return queued;
}
