import { BILLING_MESSAGES, type PlanChangeResult } from "@twinline/contracts";
import type { UserRow } from "../../../db/schema/index.ts";
import { toMajor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { SubscriptionInfo } from "../../../providers/payments/index.ts";
import { planItem } from "../checkout/checkout-terms.ts";
import { providerCall } from "../provider-call.ts";
import { planChangeKind, prorationShown } from "./plan-change-answer.ts";
import {
  releasePlanChangeClaim,
  settlePlanChangeClaim,
  takePlanChangeClaim,
} from "./plan-change-claims.ts";
import { inForceRow, providerFor, setCancel } from "./subscription-cancel.ts";
import { probe, type SubscriptionsDeps } from "./subscriptions-deps.ts";

/**
 * Changes the plan at once (upgrade, downgrade, change; the same plan of a subscription set
 * to cancel resumes it). The proration is what the provider invoiced for this change.
 */
export async function upgrade(
  deps: SubscriptionsDeps,
  user: Pick<UserRow, "id">,
  planId: string,
): Promise<PlanChangeResult> {
  const { db, catalogue, fulfilment, reader, clock } = deps;
  const row = await inForceRow(deps, user.id);
  const plan = await catalogue.planForCheckout(planId);
  if (plan.id === row.planId && row.priceMinor === plan.priceMinor) {
    if (!row.cancelAtPeriodEnd) throw new HttpError(400, BILLING_MESSAGES.samePlan);
    const resumed = await setCancel(deps, user.id, false);
    return {
      success: true,
      message: BILLING_MESSAGES.planChanged,
      subscription: {
        ...resumed.subscription,
        proratedAmount: null,
        paidFromAccountCredit: 0,
        currency: plan.currency,
        previousPlan: { _id: plan.id, name: plan.name, price: toMajor(row.priceMinor) },
        change: "change",
      },
    };
  }
  if (row.status === "trialing") {
    // Decision 0083: a trial is of its plan; a change would be prorated against nothing paid.
    throw new HttpError(409, BILLING_MESSAGES.changeInTrial);
  }
  if (plan.currency !== row.currency) {
    throw new HttpError(
      400,
      "A plan in another currency cannot replace this subscription: cancel it and subscribe again",
    );
  }
  const previous = await catalogue.findPlanAnyState(row.planId);
  const provider = await providerFor(deps, row);
  const item = planItem(plan, provider);
  // The claim is durable before the provider is called: a crash anywhere after it is
  // settled by the plan-change sweep (docs/decisions/0055).
  const claim = await takePlanChangeClaim(db, row, new Date(clock.now()));
  if (!claim) throw new HttpError(409, BILLING_MESSAGES.changeInProgress);
  await probe(deps, "claimed");
  let changed: SubscriptionInfo;
  try {
    changed = await providerCall(() =>
      provider.changeSubscriptionPrice(
        row.providerSubscriptionId,
        item,
        { planId: plan.id, userId: user.id, previousPlanId: row.planId },
        claim.changeKey,
      ),
    );
  } catch (error) {
    // Refused (a declined card, a bad request): nothing changed at the provider. Any other
    // failure may have come after the charge: the claim stays for the sweep to settle.
    if (error instanceof HttpError && error.statusCode < 500) {
      await releasePlanChangeClaim(db, claim);
    }
    throw error;
  }
  await probe(deps, "provider-changed");
  const { invoice } = await settlePlanChangeClaim(fulfilment, provider, claim, changed);
  const current = await reader.current(user.id);
  return {
    success: true,
    message: BILLING_MESSAGES.planChanged,
    subscription: {
      ...current,
      ...prorationShown(invoice),
      currency: plan.currency,
      previousPlan: previous
        ? { _id: previous.id, name: previous.name, price: toMajor(row.priceMinor) }
        : null,
      change: planChangeKind(row.priceMinor, plan.priceMinor),
    },
  };
}
