import {
  BILLING_MESSAGES,
  MONEY_TOOLS_MESSAGES,
  type PlanChangeResult,
  type SubscriptionAnalytics,
} from "@twinline/contracts";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  payments as paymentsTable,
  subscriptionPlans,
  type UserRow,
  type UserSubscriptionRow,
  userSubscriptions,
} from "../../db/schema/index.ts";
import { HttpError } from "../../plugins/errors.ts";
import type { PaymentsProvider, SandboxPayments } from "../../providers/payments/index.ts";
import type { CatalogueService } from "./catalogue-service.ts";
import { planItem } from "./checkout-service.ts";
import type { Fulfilment } from "./fulfilment.ts";
import { providerCall, toMajor } from "./money.ts";
import type { SubscriptionsReader } from "./subscriptions-reader.ts";

export interface SubscriptionsServiceOptions {
  db: Database;
  catalogue: CatalogueService;
  payments: () => Promise<PaymentsProvider>;
  sandbox: SandboxPayments;
  fulfilment: Fulfilment;
  reader: SubscriptionsReader;
}

const inForce = (row: UserSubscriptionRow | undefined): row is UserSubscriptionRow =>
  row !== undefined && (row.status === "active" || row.status === "past_due");

/**
 * The user's subscription: plan changes at once with proration (Stripe's invoice preview says
 * what is due now; the change is invoiced at once), and cancellation at the period end. The
 * mirror is refreshed from the provider's answer at once; the webhooks that follow change
 * nothing more.
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

  return {
    async upgrade(user: UserRow, planId: string): Promise<PlanChangeResult> {
      const row = await reader.currentRow(user.id);
      if (!inForce(row)) throw new HttpError(400, BILLING_MESSAGES.noActiveSubscription);
      const plan = await catalogue.planForCheckout(planId);
      if (plan.id === row.planId && row.priceMinor === plan.priceMinor && !row.cancelAtPeriodEnd) {
        throw new HttpError(400, BILLING_MESSAGES.samePlan);
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
      const preview = await providerCall(() =>
        provider.previewPriceChange(row.providerSubscriptionId, item),
      );
      const changed = await providerCall(() =>
        provider.changeSubscriptionPrice(row.providerSubscriptionId, item, {
          planId: plan.id,
          userId: user.id,
        }),
      );
      await fulfilment.refreshSubscription(changed, provider);
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
          proratedAmount: toMajor(preview.amountDueMinor),
          currency: plan.currency,
          previousPlan: previous
            ? { _id: previous.id, name: previous.name, price: toMajor(row.priceMinor) }
            : null,
          change,
        },
      };
    },

    async cancel(user: UserRow) {
      const row = await reader.currentRow(user.id);
      if (!inForce(row)) throw new HttpError(400, BILLING_MESSAGES.noActiveSubscription);
      if (row.cancelAtPeriodEnd) throw new HttpError(400, BILLING_MESSAGES.alreadyCanceling);
      const provider = await providerFor(row);
      const changed = await providerCall(() =>
        provider.cancelAtPeriodEnd(row.providerSubscriptionId),
      );
      await fulfilment.refreshSubscription(changed, provider);
      return {
        success: true as const,
        message: BILLING_MESSAGES.canceled,
        subscription: await reader.current(user.id),
      };
    },

    /** Ends the subscription now (the operator's action); the unused part is refunded apart. */
    async cancelNow(user: UserRow) {
      const row = await reader.currentRow(user.id);
      if (!inForce(row)) throw new HttpError(400, BILLING_MESSAGES.noActiveSubscription);
      const provider = await providerFor(row);
      const changed = await providerCall(() => provider.cancelNow(row.providerSubscriptionId));
      await fulfilment.refreshSubscription(changed, provider);
      return { row, subscription: await reader.current(user.id) };
    },

    /** Takes back a cancellation at the period end: the subscription renews again. */
    async resume(user: UserRow) {
      const row = await reader.currentRow(user.id);
      if (!inForce(row)) throw new HttpError(400, BILLING_MESSAGES.noActiveSubscription);
      if (!row.cancelAtPeriodEnd) throw new HttpError(400, MONEY_TOOLS_MESSAGES.notCanceling);
      const provider = await providerFor(row);
      const changed = await providerCall(() =>
        provider.resumeSubscription(row.providerSubscriptionId),
      );
      await fulfilment.refreshSubscription(changed, provider);
      return { subscription: await reader.current(user.id) };
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
