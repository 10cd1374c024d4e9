import {
  BILLING_MESSAGES,
  MONEY_TOOLS_MESSAGES,
  type PlanChangeResult,
  type SubscriptionAnalytics,
} from "@twinline/contracts";
import { and, count, eq, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  payments as paymentsTable,
  subscriptionPlans,
  type UserRow,
  type UserSubscriptionRow,
  userSubscriptions,
} from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { toMajor } from "../../../lib/money.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type {
  InvoiceInfo,
  PaymentsProvider,
  SandboxPayments,
  SubscriptionInfo,
} from "../../../providers/payments/index.ts";
import {
  isInForce,
  isOpenSubscriptionSql,
  OPEN_SUBSCRIPTION_STATUSES,
} from "../../users/subscription-state.ts";
import type { CatalogueService } from "../catalogue/catalogue-service.ts";
import { planItem } from "../checkout/checkout-terms.ts";
import type { Fulfilment } from "../fulfilment/fulfilment.ts";
import { providerCall } from "../provider-call.ts";
import {
  releasePlanChangeClaim,
  settlePlanChangeClaim,
  takePlanChangeClaim,
} from "./plan-change-claims.ts";
import type { SubscriptionsReader } from "./subscriptions-reader.ts";

/**
 * Where a test makes a plan change die half-way (a crash: nothing after it runs): after the
 * claim was written, and after the provider made the change, before it was recorded here.
 */
export type PlanChangeProbe = (step: "claimed" | "provider-changed") => void | Promise<void>;

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
  /** The billing clock (the plan-change sweep reads claims' ages by it). */
  clock: Clock;
}

/**
 * The user's subscription: plan changes at once, their proration invoiced at once (an upgrade
 * charged, a downgrade credited to the next invoice: docs/decisions/0034), cancellation at the
 * period end and its undoing. The mirror and the change's invoice are recorded from the
 * provider's answer at once; the webhooks that follow change nothing more.
 */
export function createSubscriptionsService(options: SubscriptionsServiceOptions) {
  const { db, catalogue, payments, sandbox, fulfilment, reader, clock } = options;
  const state: { probe: PlanChangeProbe | null } = { probe: null };
  const probe = async (step: Parameters<PlanChangeProbe>[0]) => {
    if (state.probe) await state.probe(step);
  };

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
    /** Tests set `state.probe` to crash a plan change half-way. */
    state,

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
      const provider = await providerFor(row);
      const item = planItem(plan, provider);
      // The claim is durable before the provider is called: a crash anywhere after it is
      // settled by the plan-change sweep (docs/decisions/0055).
      const claim = await takePlanChangeClaim(db, row, new Date(clock.now()));
      if (!claim) throw new HttpError(409, BILLING_MESSAGES.changeInProgress);
      await probe("claimed");
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
      await probe("provider-changed");
      const { invoice } = await settlePlanChangeClaim(fulfilment, provider, claim, changed);
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
          paidFromAccountCredit:
            invoice && invoice.totalMinor > 0 ? toMajor(invoice.creditAppliedMinor) : 0,
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

    /** The fan's "Resume subscription" (issue 26): the answer the cancel gives, reversed. */
    resumeOwn: (user: Pick<UserRow, "id">) => setCancel(user.id, false),
    /**
     * Ends every subscription of the user that is not canceled yet, at its provider, now (the
     * account is being deleted: no further charge, not even a past-due retry). Throws if a
     * provider refuses: the caller must then keep the account. Answers how many it ended.
     */
    async cancelAllNow(userId: string): Promise<number> {
      const rows = await db
        .select()
        .from(userSubscriptions)
        .where(and(eq(userSubscriptions.userId, userId), ne(userSubscriptions.status, "canceled")));
      for (const row of rows) {
        const provider = await providerFor(row);
        const changed = await providerCall(() => provider.cancelNow(row.providerSubscriptionId));
        await fulfilment.refreshSubscription(changed, provider);
      }
      return rows.length;
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
        .where(isOpenSubscriptionSql())
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
        activeSubscriptions: OPEN_SUBSCRIPTION_STATUSES.reduce(
          (sum, status) => sum + statusCount(status),
          0,
        ),
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
