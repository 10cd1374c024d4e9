import { and, asc, eq, inArray, lte, or } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../../db/client.ts";
import { userSubscriptions } from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import type { RenewalOutcome, SandboxPayments } from "../../../providers/payments/index.ts";

/** How often the sweep looks for sandbox subscriptions whose period has ended. */
export const RENEWAL_SWEEP_INTERVAL_MS = 5 * 60 * 1000;
/** Every five minutes, as a job (docs/decisions/0072). */
export const RENEWAL_SWEEP_CRON = "*/5 * * * *";
const BATCH = 100;

export interface RenewalsOptions {
  db: Database;
  sandbox: SandboxPayments;
  /** The app's clock (tests move a manual one: test/manual-clock.ts). */
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * The sandbox's renewal sweep (docs/decisions/0035): Stripe renews its own subscriptions and
 * tells us by webhook; the sandbox has no one to do it, so this job asks the sandbox to renew
 * every sandbox subscription in force whose period has ended by the clock. The sandbox's
 * compare-and-set makes two sweeps (two instances) renew once.
 */
export function createRenewals(options: RenewalsOptions) {
  const { db, sandbox, clock, log } = options;

  const sweep = async (): Promise<Record<RenewalOutcome, number>> => {
    const counts: Record<RenewalOutcome, number> = {
      not_due: 0,
      renewed: 0,
      past_due: 0,
      unpaid: 0,
      ended: 0,
      redelivered: 0,
      none: 0,
    };
    const now = new Date(clock.now());
    const due = await db
      .select({
        id: userSubscriptions.providerSubscriptionId,
        periodEnd: userSubscriptions.currentPeriodEnd,
        status: userSubscriptions.status,
      })
      .from(userSubscriptions)
      .where(
        and(
          eq(userSubscriptions.provider, "sandbox"),
          // A past_due one's next period has begun: the sandbox knows when to retry.
          or(
            eq(userSubscriptions.status, "past_due"),
            and(
              // A free trial's end is its first charge (decision 0083).
              inArray(userSubscriptions.status, ["active", "trialing"]),
              lte(userSubscriptions.currentPeriodEnd, now),
            ),
          ),
        ),
      )
      .orderBy(asc(userSubscriptions.currentPeriodEnd))
      .limit(BATCH);
    for (const row of due) {
      try {
        counts[await sandbox.renewDue(row.id, row)] += 1;
      } catch (error) {
        // One subscription's trouble must not stop the others; the next sweep tries again.
        log.error({ err: error, subscriptionId: row.id }, "Sandbox renewal failed");
      }
    }
    return counts;
  };

  return {
    /** One pass (tests call it after moving the clock). */
    sweep,
  };
}

export type Renewals = ReturnType<typeof createRenewals>;
