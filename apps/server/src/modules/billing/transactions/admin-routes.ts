import { BILLING_MESSAGES, routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import type { Clock } from "../../../lib/clock.ts";
import { HttpError } from "../../../plugins/errors.ts";
import { registerRoute } from "../../../plugins/routes.ts";
import type { TransactionsRepository } from "./transactions-repository.ts";

/** The admin's money screens, guarded for admins by their definitions (routes.adminBilling). */
export const adminBillingRoutes: FastifyPluginAsync<{
  transactions: TransactionsRepository;
  /** The billing clock: revenue's "today" and "this month" are those of the payments' dates. */
  clock: Clock;
}> = async (app, { transactions, clock }) => {
  registerRoute(app, routes.adminBilling.creditTransactions, async (request) => ({
    success: true as const,
    ...(await transactions.adminCreditTransactions(request.query)),
  }));

  registerRoute(app, routes.adminBilling.subscriptionTransactions, async (request) => ({
    success: true as const,
    ...(await transactions.adminSubscriptionTransactions(request.query)),
  }));

  registerRoute(app, routes.adminBilling.subscriptionHistory, async (request) => ({
    success: true as const,
    ...(await transactions.adminSubscriptionHistory(request.query)),
  }));

  registerRoute(app, routes.adminBilling.subscriptionHistoryEvent, async (request) => {
    const event = await transactions.historyEvent(request.params.id);
    if (!event) throw new HttpError(404, BILLING_MESSAGES.historyEventNotFound);
    return { success: true as const, data: event };
  });

  registerRoute(app, routes.adminBilling.userTransactions, async (request) => {
    const { page, limit, ...options } = request.query;
    const found = await transactions.userPayments(
      request.params.userId,
      "credits",
      page,
      limit,
      options,
    );
    return { success: true as const, data: found.adminCredits, pagination: found.pagination };
  });

  registerRoute(app, routes.adminBilling.userSubscriptionTransactions, async (request) => {
    const { page, limit, ...options } = request.query;
    const found = await transactions.userPayments(
      request.params.userId,
      "subscription",
      page,
      limit,
      options,
    );
    return {
      success: true as const,
      data: found.adminSubscriptions,
      pagination: found.pagination,
    };
  });

  registerRoute(app, routes.adminBilling.revenue, async (request) => ({
    success: true as const,
    data: await transactions.revenue(request.query.kind, new Date(clock.now())),
  }));
};
