import { BILLING_MESSAGES, MONEY_TOOLS_MESSAGES } from "@twinline/contracts";
import { and, eq, ne } from "drizzle-orm";
import {
  type UserRow,
  type UserSubscriptionRow,
  userSubscriptions,
} from "../../../db/schema/index.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { PaymentsProvider } from "../../../providers/payments/index.ts";
import { isInForce } from "../../users/subscription-state.ts";
import { providerCall } from "../provider-call.ts";
import type { SubscriptionsDeps } from "./subscriptions-deps.ts";

/** The provider that holds this subscription (a sandbox one stays in the sandbox). */
export async function providerFor(
  { payments, sandbox }: Pick<SubscriptionsDeps, "payments" | "sandbox">,
  row: UserSubscriptionRow,
): Promise<PaymentsProvider> {
  if (row.provider === "sandbox") return sandbox;
  const provider = await payments();
  if (provider.mode !== "stripe") {
    throw new HttpError(400, "Stripe is not configured: this subscription cannot be changed");
  }
  return provider;
}

/** The user's subscription in force, or the 400 that says there is none. */
export async function inForceRow(
  { reader }: Pick<SubscriptionsDeps, "reader">,
  userId: string,
): Promise<UserSubscriptionRow> {
  const row = await reader.currentRow(userId);
  if (!row || !isInForce(row)) throw new HttpError(400, BILLING_MESSAGES.noActiveSubscription);
  return row;
}

/** Sets (or takes back) the cancellation at the period end, at the provider and in the mirror. */
export async function setCancel(deps: SubscriptionsDeps, userId: string, cancel: boolean) {
  const row = await inForceRow(deps, userId);
  if (cancel && row.cancelAtPeriodEnd) {
    throw new HttpError(400, BILLING_MESSAGES.alreadyCanceling);
  }
  if (!cancel && !row.cancelAtPeriodEnd) {
    throw new HttpError(400, MONEY_TOOLS_MESSAGES.notCanceling);
  }
  const provider = await providerFor(deps, row);
  const changed = await providerCall(() =>
    cancel
      ? provider.cancelAtPeriodEnd(row.providerSubscriptionId)
      : provider.resumeSubscription(row.providerSubscriptionId),
  );
  await deps.fulfilment.refreshSubscription(changed, provider);
  return {
    success: true as const,
    message: cancel ? BILLING_MESSAGES.canceled : BILLING_MESSAGES.resumed,
    subscription: await deps.reader.current(userId),
  };
}

/** Stops renewal at the period end (the user's Cancel; admin tools call it too). */
export const cancel = (deps: SubscriptionsDeps, user: Pick<UserRow, "id">) =>
  setCancel(deps, user.id, true);

/** The fan's "Resume subscription" (issue 26): the answer the cancel gives, reversed. */
export const resumeOwn = (deps: SubscriptionsDeps, user: Pick<UserRow, "id">) =>
  setCancel(deps, user.id, false);

/** Takes back a cancellation at the period end: the subscription renews again. */
export async function resume(deps: SubscriptionsDeps, user: Pick<UserRow, "id">) {
  const { subscription } = await setCancel(deps, user.id, false);
  return { subscription };
}

/** Ends the subscription now (the operator's action); the unused part is refunded apart. */
export async function cancelNow(deps: SubscriptionsDeps, user: Pick<UserRow, "id">) {
  const row = await inForceRow(deps, user.id);
  const provider = await providerFor(deps, row);
  const changed = await providerCall(() => provider.cancelNow(row.providerSubscriptionId));
  await deps.fulfilment.refreshSubscription(changed, provider);
  return { row, subscription: await deps.reader.current(user.id) };
}

/**
 * Ends every subscription of the user that is not canceled yet, at its provider, now (the
 * account is being deleted: no further charge, not even a past-due retry). Throws if a
 * provider refuses: the caller must then keep the account. Answers how many it ended.
 */
export async function cancelAllNow(deps: SubscriptionsDeps, userId: string): Promise<number> {
  const rows = await deps.db
    .select()
    .from(userSubscriptions)
    .where(and(eq(userSubscriptions.userId, userId), ne(userSubscriptions.status, "canceled")));
  for (const row of rows) {
    const provider = await providerFor(deps, row);
    const changed = await providerCall(() => provider.cancelNow(row.providerSubscriptionId));
    await deps.fulfilment.refreshSubscription(changed, provider);
  }
  return rows.length;
}
