import { randomUUID } from "node:crypto";
import {
  BILLING_MESSAGES,
  MONEY_TOOLS_MESSAGES,
  type PlanChangeResult,
  type SubscriptionAnalytics,
} from "@twinline/contracts";
import { and, count, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  payments as paymentsTable,
  subscriptionPlans,
  type UserRow,
  type UserSubscriptionRow,
  userSubscriptions,
} from "../../../db/schema/index.ts";
import { toMajor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type {
  InvoiceInfo,
  PaymentsProvider,
  SandboxPayments,
} from "../../../providers/payments/index.ts";
import { isInForce } from "../../users/subscription-state.ts";
import type { CatalogueService } from "../catalogue/catalogue-service.ts";
import { planItem } from "../checkout/checkout-service.ts";
import type { Fulfilment } from "../fulfilment/fulfilment.ts";
import { providerCall } from "../provider-call.ts";
import type { SubscriptionsReader } from "./subscriptions-reader.ts";

/** What the change's invoice did: charged now (positive, after account credit) or credited. */
const proratedMinor = (invoice: InvoiceInfo): number =>
  invoice.totalMinor < 0 ? invoice.totalMinor : invoice.amountPaid;

export interface SubscriptionsServiceOptions {
  db: Database;
  catalogue: CatalogueService;
  payments: () => Promise<PaymentsProvider>;
  sandbox: SandboxPayments;
  fulfilment: Fulfilment;
  reader: SubscriptionsReader;
}

/** How long a plan change may hold its subscription before another request may take over. */
export const PLAN_CHANGE_LEASE_SECONDS = 120;

/**
 * The user's subscription: plan changes at once, their proration invoiced at once (an upgrade
 * charged, a downgrade credited to the next invoice: docs/decisions/0034), cancellation at the
 * period end and its undoing. The mirror and the change's invoice are recorded from the
 * provider's answer at once; the webhooks that follow change nothing more.
 */
export function createSubscriptionsService(options: SubscriptionsServiceOptions) {
  const { db, catalogue, payments, sandbox, fulfilment, reader } = options;

  /** The provider that holds this subscription (a sandbox one stays in the sandbox). */
  const providerFor = async (row: UserSubscriptionRow): Promise<PaymentsProvider> => {
    if (row.provider === "sandbox") return sandbox;
    const provider = await payments();
    if (provider.mode !== "stripe") {
      throw new HttpError(400, "Stripe is not configured: this subscription cannot be changed");
    }
    return provider;
  };

  const inForceRow = async (userId: string): Promise<UserSubscriptionRow> => {
    const row = await reader.currentRow(userId);
    if (!row || !isInForce(row)) throw new HttpError(400, BILLING_MESSAGES.noActiveSubscription);
    return row;
  };

  /**
   * One change in flight per subscription: a conditional update takes the lease (its key is
   * the provider's idempotency key); a second request meanwhile answers 409 and charges nothing.
   */
  const takeLease = async (row: UserSubscriptionRow): Promise<string> => {
    const key = `plan-change:${row.id}:${randomUUID()}`;
    const taken = await db
      .update(userSubscriptions)
      .set({ planChangeKey: key, planChangeStartedAt: sql`now()` })
      .where(
        and(
          eq(userSubscriptions.id, row.id),
          or(
            isNull(userSubscriptions.planChangeKey),
            lt(
              userSubscriptions.planChangeStartedAt,
              sql`now() - make_interval(secs => ${PLAN_CHANGE_LEASE_SECONDS})`,
            ),
          ),
        ),
      )
      .returning({ id: userSubscriptions.id });
    if (taken.length === 0) throw new HttpError(409, BILLING_MESSAGES.changeInProgress);
    return key;
  };

  const releaseLease = async (row: UserSubscriptionRow, key: string) => {
    await db
      .update(userSubscriptions)
      .set({ planChangeKey: null, planChangeStartedAt: null })
      .where(and(eq(userSubscriptions.id, row.id), eq(userSubscriptions.planChangeKey, key)));
  };

  const setCancel = async (userId: string, cancel: boolean) => {
    const row = await inForceRow(userId);
    if (cancel && row.cancelAtPeriodEnd) {
      throw new HttpError(400, BILLING_MESSAGES.alreadyCanceling);
    }
    if (!cancel && !row.cancelAtPeriodEnd) {
      throw new HttpError(400, MONEY_TOOLS_MESSAGES.notCanceling);
    }
    const provider = await providerFor(row);
    const changed = await providerCall(() =>
      cancel
        ? provider.cancelAtPeriodEnd(row.providerSubscriptionId)
        : provider.resumeSubscription(row.providerSubscriptionId),
    );
    await fulfilment.refreshSubscription(changed, provider);
    return {
      success: true as const,
      message: cancel ? BILLING_MESSAGES.canceled : BILLING_MESSAGES.resumed,
      subscription: await reader.current(userId),
    };
  };

  return {
    /**
     * Changes the plan at once (upgrade, downgrade, change; the same plan of a subscription set
     * to cancel resumes it). The proration is what the provider invoiced for this change.
     */
    async upgrade(user: Pick<UserRow, "id">, planId: string): Promise<PlanChangeResult> {
      const row = await inForceRow(user.id);
      const plan = await catalogue.planForCheckout(planId);
      if (plan.id === row.planId && row.priceMinor === plan.priceMinor) {
        if (!row.cancelAtPeriodEnd) throw new HttpError(400, BILLING_MESSAGES.samePlan);
        const resumed = await setCancel(user.id, false);
        return {
          success: true,
          message: BILLING_MESSAGES.planChanged,
          subscription: {
            ...resumed.subscription,
            proratedAmount: null,
            currency: plan.currency,
            previousPlan: { _id: plan.id, name: plan.name, price: toMajor(row.priceMinor) },
            change: "change",
          },
        };
      }
      if (plan.currency !== row.currency) {
        throw new HttpError(
          400,
          "A plan in another currency cannot replace this subscription: cancel it and subscribe again",
        );
      }
      const previous = await catalogue.findPlanAnyState(row.planId);
      const provider = await providerFor(row);
      const item = planItem(plan, provider);
      const key = await takeLease(row);
      let invoice: InvoiceInfo | null = null;
      try {
        const changed = await providerCall(() =>
          provider.changeSubscriptionPrice(
            row.providerSubscriptionId,
            item,
            { planId: plan.id, userId: user.id, previousPlanId: row.planId },
            key,
          ),
        );
        await fulfilment.refreshSubscription(changed, provider);
        const latest = changed.latestInvoiceId
          ? await providerCall(() => provider.retrieveInvoice(changed.latestInvoiceId ?? ""))
          : null;
        // Only this change's invoice (none when its proration was zero).
        if (latest?.subscriptionMetadata.changeKey === key) {
          invoice = latest;
          await fulfilment.recordInvoice(latest, changed, provider);
        }
      } finally {
        await releaseLease(row, key);
      }
      const current = await reader.current(user.id);
      const change =
        plan.priceMinor > row.priceMinor
          ? "upgrade"
          : plan.priceMinor < row.priceMinor
            ? "downgrade"
            : "change";
      return {
        success: true,
        message: BILLING_MESSAGES.planChanged,
        subscription: {
          ...current,
          proratedAmount: invoice ? toMajor(proratedMinor(invoice)) : 0,
          currency: plan.currency,
          previousPlan: previous
            ? { _id: previous.id, name: previous.name, price: toMajor(row.priceMinor) }
            : null,
          change,
        },
      };
    },

    /** Stops renewal at the period end (the user's Cancel; admin tools call it too). */
    cancel: (user: Pick<UserRow, "id">) => setCancel(user.id, true),

    /** Ends the subscription now (the operator's action); the unused part is refunded apart. */
    async cancelNow(user: Pick<UserRow, "id">) {
      const row = await inForceRow(user.id);
      const provider = await providerFor(row);
      const changed = await providerCall(() => provider.cancelNow(row.providerSubscriptionId));
      await fulfilment.refreshSubscription(changed, provider);
      return { row, subscription: await reader.current(user.id) };
    },

    /** Takes back a cancellation at the period end: the subscription renews again. */
    async resume(user: Pick<UserRow, "id">) {
      const { subscription } = await setCancel(user.id, false);
      return { subscription };
    },

    async analytics(): Promise<SubscriptionAnalytics> {
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
        .where(sql`${userSubscriptions.status} in ('active', 'past_due')`)
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
        activeSubscriptions: statusCount("active") + statusCount("past_due"),
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
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
