import { routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { currentUser } from "../../../plugins/auth.ts";
import { registerRoute } from "../../../plugins/routes.ts";
import { creditHistory } from "../../credits/history.ts";
import type { TransactionsRepository } from "./transactions-repository.ts";

/** The signed-in user's credits, payments and subscription history (user-side section 3). */
export const userTransactionsRoutes: FastifyPluginAsync<{
  transactions: TransactionsRepository;
}> = async (app, { transactions }) => {
  registerRoute(app, routes.billing.creditBalance, async (request) => ({
    success: true as const,
    available: currentUser(request).credits,
  }));

  registerRoute(app, routes.billing.creditHistory, async (request) => {
    const { page, limit } = request.query;
    return {
      success: true as const,
      ...(await creditHistory(app.database.db, currentUser(request).id, page, limit)),
    };
  });

  /** Credit purchases and subscription payments are one list, told apart by kind. */
  const paymentHistory = [
    [routes.billing.paymentHistory, "credits"],
    [routes.billing.subscriptionPaymentHistory, "subscription"],
  ] as const;
  for (const [route, kind] of paymentHistory) {
    registerRoute(app, route, async (request) => {
      const { page, limit } = request.query;
      const found = await transactions.userPayments(currentUser(request).id, kind, page, limit);
      return {
        success: true as const,
        data: found.user,
        transactions: found.user,
        pagination: found.pagination,
      };
    });
  }

  registerRoute(app, routes.billing.subscriptionHistory, async (request) => {
    const { page, limit } = request.query;
    return {
      success: true as const,
      ...(await transactions.userHistory(currentUser(request).id, page, limit)),
    };
  });
};
