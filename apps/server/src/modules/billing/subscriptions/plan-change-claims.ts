import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { userSubscriptions } from "../../../db/schema/index.ts";
import type {
  InvoiceInfo,
  PaymentsProvider,
  SubscriptionInfo,
} from "../../../providers/payments/index.ts";
import type { Fulfilment } from "../fulfilment/fulfilment.ts";

/**
 * How long a plan change may be in flight before the sweep settles its claim: longer than any
 * provider call (with the SDK's retries) takes.
 */
export const PLAN_CHANGE_LEASE_SECONDS = 120;

/** A plan change claimed before its provider call (docs/decisions/0055). */
export interface PlanChangeClaim {
  subscriptionRowId: string;
  /** Null once the account was deleted (decision 0063). */
  userId: string | null;
  providerSubscriptionId: string;
  /** Also the provider's idempotency key and the subscription's metadata `changeKey`. */
  changeKey: string;
}

/**
 * Claims the subscription for one plan change, durably, before the provider is called: a
 * conditional update, so a second change meanwhile is refused (null) and charges nothing. A
 * claim is only ever released by settling it (here or by the sweep), never taken over: a claim
 * left by a crash may hide a charge the provider made.
 */
export async function takePlanChangeClaim(
  db: Database,
  /** The subscription as the request read it: its plan and price decided the change asked. */
  row: {
    id: string;
    userId: string | null;
    providerSubscriptionId: string;
    planId: string;
    priceMinor: number;
  },
  /** By the billing clock, which the sweep reads too. */
  now: Date,
): Promise<PlanChangeClaim | null> {
  const changeKey = `plan-change:${row.id}:${randomUUID()}`;
  // A change that finished between the read and this claim (a double click) leaves another
  // plan in force: the request's reading is stale, so it takes no claim either.
  const taken = await db
    .update(userSubscriptions)
    .set({ planChangeKey: changeKey, planChangeStartedAt: now })
    .where(
      and(
        eq(userSubscriptions.id, row.id),
        isNull(userSubscriptions.planChangeKey),
        eq(userSubscriptions.planId, row.planId),
        eq(userSubscriptions.priceMinor, row.priceMinor),
      ),
    )
    .returning({ id: userSubscriptions.id });
  if (taken.length === 0) return null;
  return {
    subscriptionRowId: row.id,
    userId: row.userId,
    providerSubscriptionId: row.providerSubscriptionId,
    changeKey,
  };
}

/** Ends a claim (only its own: a later claim's key differs). */
export async function releasePlanChangeClaim(
  tx: Database,
  claim: Pick<PlanChangeClaim, "subscriptionRowId" | "changeKey">,
): Promise<void> {
  await tx
    .update(userSubscriptions)
    .set({ planChangeKey: null, planChangeStartedAt: null })
    .where(
      and(
        eq(userSubscriptions.id, claim.subscriptionRowId),
        eq(userSubscriptions.planChangeKey, claim.changeKey),
      ),
    );
}

export interface SettledPlanChange {
  /** The provider made the change (its subscription carries the claim's key). */
  applied: boolean;
  /** The change's invoice (none when its proration was zero or it was not applied). */
  invoice: InvoiceInfo | null;
}

/**
 * Settles a claim with what the provider holds: the subscription re-read (or as the change's
 * call answered it) and, when it carries the claim's key, the invoice that change made. The
 * mirror, the invoice's payment row and credits, and the claim's release are one transaction
 * (fulfilment.settlePlanChange), so settling twice records once.
 */
export async function settlePlanChangeClaim(
  fulfilment: Fulfilment,
  provider: PaymentsProvider,
  claim: PlanChangeClaim,
  answered?: SubscriptionInfo,
): Promise<SettledPlanChange> {
  const subscription =
    answered ?? (await provider.retrieveSubscription(claim.providerSubscriptionId));
  const applied = subscription?.metadata.changeKey === claim.changeKey;
  const invoice = applied
    ? await provider.changeInvoice(claim.providerSubscriptionId, claim.changeKey)
    : null;
  await fulfilment.settlePlanChange(claim, subscription, invoice, provider);
  return { applied, invoice };
}
