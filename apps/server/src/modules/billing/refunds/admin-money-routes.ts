import { MONEY_TOOLS_MESSAGES, routes } from "@twinline/contracts";
import { and, desc, eq, gt } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../../db/client.ts";
import { type PaymentRow, payments, type UserRow, users } from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { registerRoute } from "../../../plugins/routes.ts";
import { auditActionOf } from "../../audit/actions.ts";
import { auditActorOf, writeAuditEntry } from "../../audit/in-transaction.ts";
import { auditNote } from "../../audit/plugin.ts";
import { adjustCredits } from "../../credits/adjustments.ts";
import { isInForce } from "../../users/subscription-state.ts";
import type { SubscriptionsReader } from "../subscriptions/subscriptions-reader.ts";
import type { SubscriptionsService } from "../subscriptions/subscriptions-service.ts";
import { paymentDetails } from "../transactions/payment-details.ts";
import { toPaymentRefund } from "./refunds-ledger.ts";
import type { RefundsService } from "./refunds-service.ts";

export interface AdminMoneyRoutesOptions {
  db: Database;
  refunds: RefundsService;
  subscriptions: SubscriptionsService;
  reader: SubscriptionsReader;
  /** THE billing clock: how much of the period is left when a subscription is ended now. */
  clock: Clock;
}

/**
 * The operator's money tools (issue 16, docs/decisions/0050): refunds, credit adjustments and
 * subscription actions, guarded for admins by their definitions (routes.adminBilling); each
 * write feeds the audit log its `before` (the hook records it with the answer).
 */
export const adminMoneyRoutes: FastifyPluginAsync<AdminMoneyRoutesOptions> = async (
  app,
  { db, refunds, subscriptions, reader, clock },
) => {
  const userOf = async (userId: string): Promise<UserRow> => {
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) throw new HttpError(404, MONEY_TOOLS_MESSAGES.userNotFound);
    return user;
  };

  /**
   * Whether refunding this payment may end its plan now: it is the latest paid payment of the
   * user's subscription in force (an older one paid for a period already over).
   */
  const isLatestPlanPayment = async (payment: PaymentRow): Promise<boolean> => {
    if (payment.kind !== "subscription" || !payment.subscriptionId || !payment.userId) {
      return false;
    }
    const row = await reader.currentRow(payment.userId);
    if (!row || !isInForce(row) || row.id !== payment.subscriptionId) return false;
    const [latest] = await latestPaid(row.id);
    return latest?.id === payment.id;
  };

  /** The newest payment that paid for a subscription (its latest period). */
  const latestPaid = (subscriptionId: string) =>
    db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.subscriptionId, subscriptionId),
          eq(payments.status, "success"),
          gt(payments.amountMinor, 0),
        ),
      )
      .orderBy(desc(payments.transactionDate), desc(payments.seq))
      .limit(1);

  registerRoute(app, routes.adminBilling.payment, async (request) => {
    const [payment] = await db.select().from(payments).where(eq(payments.id, request.params.id));
    if (!payment) throw new HttpError(404, MONEY_TOOLS_MESSAGES.paymentNotFound);
    return { success: true as const, data: await paymentDetails(db, payment) };
  });

  registerRoute(app, routes.adminBilling.refundPayment, async (request) => {
    const { endSubscription, ...refund } = request.body;
    const [payment] = await db.select().from(payments).where(eq(payments.id, request.params.id));
    if (!payment) throw new HttpError(404, MONEY_TOOLS_MESSAGES.paymentNotFound);
    if (endSubscription && !(await isLatestPlanPayment(payment))) {
      throw new HttpError(400, MONEY_TOOLS_MESSAGES.notLatestPlanPayment, {
        field: "endSubscription",
      });
    }
    // Settling the refund writes its audit entry in the same transaction (refunds-ledger.ts).
    auditNote(request, { recorded: true });
    const data = await refunds.refundPayment(auditActorOf(request), payment.id, refund);
    // A deleted account's payment (userId null) has no subscription left to end here.
    if (!endSubscription || !payment.userId) {
      return { success: true as const, message: MONEY_TOOLS_MESSAGES.refunded, data };
    }
    // The plan this money paid for ends now, as the cancel-with-refund does; its own audit
    // entry (the refund has one) names the subscription.
    const ended = await subscriptions.cancelNow({ id: payment.userId });
    await writeAuditEntry(db, auditActorOf(request), {
      action: "subscription.cancel",
      targetType: "subscription",
      targetId: payment.userId,
      before: { paymentId: payment.id, reason: refund.reason },
      after: { subscription: ended.subscription },
    });
    return {
      success: true as const,
      message: MONEY_TOOLS_MESSAGES.refundedAndEnded,
      data: { ...data, subscription: ended.subscription },
    };
  });

  registerRoute(app, routes.adminBilling.adjustCredits, async (request) => {
    const user = await userOf(request.params.userId);
    const { delta, reason, requestId } = request.body;
    // The movement and its audit entry commit together, or neither does.
    auditNote(request, { recorded: true });
    const actor = auditActorOf(request);
    const data = await db.transaction(async (tx) => {
      const adjusted = await adjustCredits(tx, {
        adminId: actor.adminId ?? "",
        userId: user.id,
        delta,
        reason,
        ...(requestId ? { requestId } : {}),
      });
      if (adjusted.applied) {
        const change = auditActionOf(request.method, request.routeOptions.url ?? "");
        await writeAuditEntry(tx, actor, {
          action: change?.action ?? "user.credits_adjust",
          targetType: change?.targetType ?? "user",
          targetId: user.id,
          before: { credits: adjusted.balance - delta, delta, reason },
          after: adjusted,
        });
      }
      return adjusted;
    });
    return { success: true as const, message: MONEY_TOOLS_MESSAGES.adjusted, data };
  });

  registerRoute(app, routes.adminBilling.cancelSubscription, async (request) => {
    const user = await userOf(request.params.userId);
    const { when, refundUnused, reason } = request.body;
    auditNote(request, { before: { subscription: await reader.current(user.id), reason } });
    if (when === "period_end") {
      const done = await subscriptions.cancel(user);
      return {
        success: true as const,
        message: MONEY_TOOLS_MESSAGES.subscriptionCanceledAtPeriodEnd,
        data: { subscription: done.subscription, refund: null },
      };
    }
    const now = new Date(clock.now());
    const { row, subscription } = await subscriptions.cancelNow(user);
    let refund = null;
    if (refundUnused) {
      // The unused part of the period, from the period's latest payment of this subscription.
      const [paid] = await latestPaid(row.id);
      const total = row.currentPeriodEnd.getTime() - row.currentPeriodStart.getTime();
      const left = Math.max(0, row.currentPeriodEnd.getTime() - now.getTime());
      const unused =
        paid && total > 0 ? Math.floor((row.priceMinor * Math.min(left, total)) / total) : 0;
      const amountMinor = paid ? Math.min(unused, paid.amountMinor - paid.refundedMinor) : 0;
      if (paid && amountMinor > 0) {
        const claimed = await refunds.claimAndExecute({
          paymentId: paid.id,
          amountMinor,
          reason: `Unused part of the period: ${reason}`,
          kind: "admin",
          actor: auditActorOf(request),
          sourceKey: `cancel-unused:${row.id}`,
        });
        refund = toPaymentRefund(claimed);
      }
    }
    return {
      success: true as const,
      message: MONEY_TOOLS_MESSAGES.subscriptionCanceledNow,
      data: { subscription, refund },
    };
  });

  registerRoute(app, routes.adminBilling.resumeSubscription, async (request) => {
    const user = await userOf(request.params.userId);
    auditNote(request, {
      before: { subscription: await reader.current(user.id), reason: request.body.reason },
    });
    const done = await subscriptions.resume(user);
    return {
      success: true as const,
      message: MONEY_TOOLS_MESSAGES.subscriptionResumed,
      data: { subscription: done.subscription, refund: null },
    };
  });
};
