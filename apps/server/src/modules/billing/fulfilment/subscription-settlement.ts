import type { UserSubscriptionRow } from "../../../db/schema/index.ts";
import type {
  InvoiceInfo,
  PaymentsProvider,
  SubscriptionInfo,
} from "../../../providers/payments/index.ts";
import { releasePlanChangeClaim } from "../subscriptions/plan-change-claims.ts";
import { syncSubscription } from "../subscriptions/subscription-mirror.ts";
import { type FulfilmentDeps, transact } from "./fulfilment-transaction.ts";
import { recordPaidInvoice } from "./invoices.ts";

/**
 * Settles a plan change's claim (docs/decisions/0034, 0055) in ONE transaction: the mirror
 * brought to the provider's subscription, the change's invoice recorded as its webhook
 * would (same source key, so whichever comes second changes nothing: payment row and plan
 * credits once), and the claim released. A crash before the commit leaves the claim for the
 * plan-change sweep; after it, there is nothing left to do.
 */
export async function settlePlanChange(
  deps: FulfilmentDeps,
  claim: { subscriptionRowId: string; userId: string | null; changeKey: string },
  subscription: SubscriptionInfo | null,
  invoice: InvoiceInfo | null,
  provider: PaymentsProvider,
): Promise<void> {
  await transact(deps, provider, claim.userId, async (context) => {
    const row = await syncSubscription(context, subscription);
    if (row && invoice) await recordPaidInvoice(context, invoice, row, null);
    await releasePlanChangeClaim(context.tx, claim);
  });
}

/** The mirror of one subscription brought to the provider's state now (plan change, cancel). */
export async function refreshSubscription(
  deps: FulfilmentDeps,
  subscription: SubscriptionInfo,
  provider: PaymentsProvider,
): Promise<UserSubscriptionRow | null> {
  return transact(deps, provider, subscription.metadata.userId, (context) =>
    syncSubscription(context, subscription),
  );
}
