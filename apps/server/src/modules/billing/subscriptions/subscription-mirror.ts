import { randomUUID } from "node:crypto";
import type { SubscriptionStatus } from "@twinline/contracts";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  paymentRefunds,
  subscriptionEvents,
  subscriptionPlans,
  type UserSubscriptionRow,
  userSubscriptions,
  users,
} from "../../../db/schema/index.ts";
import { isUuid } from "../../../lib/search.ts";
import type {
  ProviderSubscriptionStatus,
  SubscriptionInfo,
} from "../../../providers/payments/index.ts";
import { enqueueSubscriptionChange } from "../../fan-mail/enqueue.ts";
import { isOpenSubscriptionSql } from "../../users/subscription-state.ts";
import { currencyOf, type EventContext } from "../fulfilment/event-context.ts";

type HistoryEventType = "created" | "updated" | "canceled" | "renewed" | "payment_failed";

/** Stripe's subscription states in the five of the spec and a free trial's (decision 0083). */
function toSubscriptionStatus(status: ProviderSubscriptionStatus): SubscriptionStatus {
  switch (status) {
    case "active":
      return "active";
    case "trialing":
      return "trialing";
    case "past_due":
      return "past_due";
    case "unpaid":
      return "unpaid";
    case "canceled":
    case "incomplete_expired":
      return "canceled";
    default:
      return "incomplete";
  }
}

export async function planOf(tx: Database, planId: string) {
  const [plan] = await tx.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, planId));
  return plan;
}

/** One event of a subscription's history, once per source key. */
export async function recordHistory(
  tx: Database,
  row: UserSubscriptionRow,
  event: { planName: string; type: HistoryEventType; sourceKey: string; amountMinor?: number },
): Promise<void> {
  await tx
    .insert(subscriptionEvents)
    .values({
      userId: row.userId,
      subscriptionId: row.id,
      planId: row.planId,
      planName: event.planName,
      eventType: event.type,
      status: row.status,
      startDate: row.currentPeriodStart,
      endDate: row.currentPeriodEnd,
      amountMinor: event.amountMinor ?? row.priceMinor,
      currency: row.currency,
      autoRenew: !row.cancelAtPeriodEnd && row.status !== "canceled",
      providerSubscriptionId: row.providerSubscriptionId,
      sourceKey: event.sourceKey,
    })
    .onConflictDoNothing({ target: subscriptionEvents.sourceKey });
}

const endClaimKey = (subscriptionId: string) => `duplicate:${subscriptionId}`;

/** Whether a provider subscription is claimed for ending (it must never be in force). */
async function claimedForEnd(tx: Database, subscriptionId: string): Promise<boolean> {
  const [claimed] = await tx
    .select({ id: paymentRefunds.id })
    .from(paymentRefunds)
    .where(eq(paymentRefunds.sourceKey, endClaimKey(subscriptionId)));
  return Boolean(claimed);
}

/**
 * Claims (once) that a provider subscription must end and its payment be refunded: the refunds
 * service does both after the event commits, and its sweep again if that fails. Its mirror,
 * if any, is never in force again.
 */
export async function claimSubscriptionEnd(
  context: EventContext,
  subscription: Pick<SubscriptionInfo, "id" | "amountMinor" | "currency">,
  /** userId null: the account was deleted (decision 0063). */
  owner: { userId: string | null; planId: string },
  reason: string,
): Promise<void> {
  await context.tx
    .insert(paymentRefunds)
    .values({
      userId: owner.userId,
      kind: "duplicate_subscription",
      provider: context.provider.mode,
      amountMinor: subscription.amountMinor,
      currency: currencyOf(subscription.currency),
      reason,
      sourceKey: endClaimKey(subscription.id),
      metadata: { providerSubscriptionId: subscription.id, planId: owner.planId },
    })
    .onConflictDoNothing();
  if (owner.userId) context.effects.duplicateOf.add(owner.userId);
}

/**
 * A mirrored subscription whose first payment was not the plan's price (decision 0036): ended
 * here at once (no plan in force, an "ended" event), and claimed for ending at the provider
 * with the money given back.
 */
export async function endMismatchedSubscription(
  context: EventContext,
  row: UserSubscriptionRow,
  planName: string,
): Promise<void> {
  await claimSubscriptionEnd(
    context,
    { id: row.providerSubscriptionId, amountMinor: row.priceMinor, currency: row.currency },
    { userId: row.userId, planId: row.planId },
    "The amount paid did not match the plan: ended and refunded automatically",
  );
  if (row.status === "canceled") return;
  const [ended] = await context.tx
    .update(userSubscriptions)
    .set({ status: "canceled", canceledAt: context.now(), updatedAt: sql`now()` })
    .where(eq(userSubscriptions.id, row.id))
    .returning();
  if (ended) {
    const sourceKey = `sub:${row.providerSubscriptionId}:ended`;
    await recordHistory(context.tx, ended, { planName, type: "canceled", sourceKey });
  }
}

/**
 * One subscription per user (decision 0051): a provider subscription not mirrored yet, of a
 * user who has another one in force, is a duplicate (two checkouts paid). It is never
 * mirrored, and is claimed for ending. The caller holds the user's row lock, so of two
 * parallel payments exactly one is first.
 */
async function isDuplicate(
  context: EventContext,
  subscription: SubscriptionInfo,
  userId: string,
  planId: string,
): Promise<boolean> {
  const { tx } = context;
  if (await claimedForEnd(tx, subscription.id)) return true;
  const [other] = await tx
    .select({ id: userSubscriptions.id })
    .from(userSubscriptions)
    .where(
      and(
        eq(userSubscriptions.userId, userId),
        isOpenSubscriptionSql(),
        ne(userSubscriptions.providerSubscriptionId, subscription.id),
      ),
    )
    .limit(1);
  if (!other) return false;
  await claimSubscriptionEnd(
    context,
    subscription,
    { userId, planId },
    "A second subscription was paid while one was active: refunded automatically",
  );
  context.log.warn(
    { userId, subscriptionId: subscription.id },
    "Second subscription paid: refunding it",
  );
  return true;
}

/**
 * The local mirror of a provider subscription, brought to the provider's state (row-locked),
 * with the history events its changes make. The owner and plan come from the subscription's
 * metadata (set at checkout and on each plan change), else from `fallback` (the checkout row).
 */
/** Whether the account exists (a provider's event may name one deleted since). */
async function accountExists(tx: EventContext["tx"], userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return row !== undefined;
}

export async function syncSubscription(
  context: EventContext,
  subscription: SubscriptionInfo | null,
  fallback?: { userId: string; planId: string | null },
): Promise<UserSubscriptionRow | null> {
  if (!subscription) return null;
  const { tx } = context;
  const [existing] = await tx
    .select()
    .from(userSubscriptions)
    .where(eq(userSubscriptions.providerSubscriptionId, subscription.id))
    .for("update");
  // A mirror detached from a deleted account (userId null, decision 0063) stays detached: the
  // provider's metadata still names the erased account.
  const userId = existing
    ? existing.userId
    : (subscription.metadata.userId ?? fallback?.userId ?? null);
  const planId = subscription.metadata.planId ?? existing?.planId ?? fallback?.planId;
  if ((!existing && !userId) || !planId) return null;
  const plan = await planOf(tx, planId);
  if (!plan) return null;
  const values = {
    userId,
    planId,
    provider: context.provider.mode,
    providerSubscriptionId: subscription.id,
    providerCustomerId: subscription.customerId,
    priceId: subscription.priceId,
    priceMinor: subscription.amountMinor,
    currency: currencyOf(subscription.currency),
    status: toSubscriptionStatus(subscription.status),
    currentPeriodStart: subscription.currentPeriodStart,
    currentPeriodEnd: subscription.currentPeriodEnd,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    canceledAt: subscription.canceledAt,
    trialEnd: subscription.trialEnd,
  };
  const key = `sub:${subscription.id}`;
  if (!existing) {
    if (!userId || !(await accountExists(tx, userId))) return null;
    if (await isDuplicate(context, subscription, userId, planId)) return null;
    const [inserted] = await tx
      .insert(userSubscriptions)
      .values({ ...values, createdAt: subscription.created })
      .onConflictDoNothing({ target: userSubscriptions.providerSubscriptionId })
      .returning();
    if (!inserted) {
      // Inserted meanwhile by a concurrent event: lock it and carry on as an update.
      return syncSubscription(context, subscription, fallback);
    }
    const planName = plan.name;
    await recordHistory(tx, inserted, { planName, type: "created", sourceKey: `${key}:created` });
    if (inserted.cancelAtPeriodEnd) {
      const sourceKey = `${key}:cancel-requested`;
      await recordHistory(tx, inserted, { planName, type: "canceled", sourceKey });
    }
    return inserted;
  }
  // Claimed for ending (paid at the wrong amount, decision 0036): the provider's "active" until
  // the refunds service has ended it does not put it in force.
  if (values.status !== "canceled" && (await claimedForEnd(tx, subscription.id))) {
    values.status = "canceled";
    values.canceledAt ??= context.now();
  }
  const [updated] = await tx
    .update(userSubscriptions)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(userSubscriptions.id, existing.id))
    .returning();
  if (!updated) return existing;
  const planName = plan.name;
  // Each change is seen once: the row is locked and already shows it to whoever comes next.
  const inForce = updated.status !== "canceled";
  const planChanged = existing.planId !== updated.planId || existing.priceId !== updated.priceId;
  // Resumed (the cancellation taken back): "updated", auto-renewing again, so the history ends
  // as the details read (issue 24). A plan change that resumes is one event.
  const resumed = existing.cancelAtPeriodEnd && !updated.cancelAtPeriodEnd && inForce;
  const confirm = (change: "canceled" | "resumed", eventKey: string, periodEnd: Date) =>
    enqueueSubscriptionChange(tx, updated.userId, change, eventKey, {
      planName,
      periodEnd: periodEnd.toISOString(),
    });
  if (planChanged || resumed) {
    const sourceKey = `${key}:updated:${randomUUID()}`;
    await recordHistory(tx, updated, { planName, type: "updated", sourceKey });
    if (resumed) await confirm("resumed", sourceKey, updated.currentPeriodEnd);
  }
  if (!existing.cancelAtPeriodEnd && updated.cancelAtPeriodEnd && inForce) {
    // Per request: cancel, resume, cancel again in one period is two "canceled" events.
    const sourceKey = `${key}:cancel-requested:${randomUUID()}`;
    await recordHistory(tx, updated, { planName, type: "canceled", sourceKey });
    await confirm("canceled", sourceKey, updated.currentPeriodEnd);
  }
  if (existing.status !== "canceled" && updated.status === "canceled") {
    await recordHistory(tx, updated, { planName, type: "canceled", sourceKey: `${key}:ended` });
    // Ended without a cancellation asked before (the operator's "cancel now", unpaid renewals):
    // the fan is told it ended; one set to cancel was confirmed when they asked.
    if (!existing.cancelAtPeriodEnd) {
      await confirm("canceled", `${key}:ended`, updated.canceledAt ?? context.now());
    }
  }
  return updated;
}
