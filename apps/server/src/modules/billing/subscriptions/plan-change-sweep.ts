import { and, asc, isNotNull, lt } from "drizzle-orm";
import { userSubscriptions } from "../../../db/schema/index.ts";
import type { BillingSweepDeps } from "../sweep-deps.ts";
import { PLAN_CHANGE_LEASE_SECONDS, settlePlanChangeClaim } from "./plan-change-claims.ts";

/** How often the sweep looks for plan-change claims left open. */
export const PLAN_CHANGE_SWEEP_EVERY_MS = 60_000;
/** Every minute, as a job (docs/decisions/0072). */
export const PLAN_CHANGE_SWEEP_CRON = "* * * * *";
const BATCH = 100;

export interface PlanChangeSweepResult {
  checked: number;
  /** The provider made the change: mirror, payment row and credits recorded (once). */
  settled: number;
  /** The provider never made it: the claim was released, nothing else changed. */
  released: number;
}

/**
 * The safety net under plan changes (docs/decisions/0055): every minute, a claim older than the
 * lease (its request died: a crash, a failure after the provider's call) is settled with the
 * provider's subscription and invoices, exactly as the request would have: the change's payment
 * row, plan credits and mirror once, the claim released in the same transaction.
 */
export function createPlanChangeSweep(options: BillingSweepDeps) {
  const { db, fulfilment, sandbox, clock, log } = options;

  const sweep = async (): Promise<PlanChangeSweepResult> => {
    const result: PlanChangeSweepResult = { checked: 0, settled: 0, released: 0 };
    const staleBefore = new Date(clock.now() - PLAN_CHANGE_LEASE_SECONDS * 1000);
    const open = await db
      .select({
        subscriptionRowId: userSubscriptions.id,
        userId: userSubscriptions.userId,
        providerSubscriptionId: userSubscriptions.providerSubscriptionId,
        changeKey: userSubscriptions.planChangeKey,
        provider: userSubscriptions.provider,
      })
      .from(userSubscriptions)
      .where(
        and(
          isNotNull(userSubscriptions.planChangeKey),
          lt(userSubscriptions.planChangeStartedAt, staleBefore),
        ),
      )
      .orderBy(asc(userSubscriptions.planChangeStartedAt))
      .limit(BATCH);
    for (const { provider: mode, changeKey, ...claim } of open) {
      if (!changeKey) continue;
      result.checked += 1;
      try {
        const provider = mode === "sandbox" ? sandbox : await options.payments();
        // The Stripe key was removed since: the claim waits until it can be asked about.
        if (provider.mode !== mode) continue;
        const { applied } = await settlePlanChangeClaim(fulfilment, provider, {
          ...claim,
          changeKey,
        });
        result[applied ? "settled" : "released"] += 1;
      } catch (error) {
        // One claim the provider cannot answer for must not stop the others.
        log.warn(
          { err: error, subscriptionId: claim.providerSubscriptionId },
          "Plan-change sweep: claim not settled",
        );
      }
    }
    return result;
  };

  return {
    /** One pass now (also what the timer runs). */
    sweep,
  };
}

export type PlanChangeSweep = ReturnType<typeof createPlanChangeSweep>;
