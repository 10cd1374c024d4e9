import {
  creditBalanceResponseSchema,
  creditHistoryResponseSchema,
  pageQuerySchema,
  userSubscriptionHistoryResponseSchema,
  userTransactionsResponseSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../../plugins/auth.ts";
import { bearerSecurity, errorResponses } from "../../../plugins/openapi.ts";
import { creditHistory } from "../../credits/history.ts";
import type { TransactionsRepository } from "./transactions-repository.ts";

const errors = errorResponses(400, 401, 403, 404);
const security = bearerSecurity;

/** The signed-in user's credits, payments and subscription history (user-side section 3). */
export const userTransactionsRoutes: FastifyPluginAsyncZod<{
  transactions: TransactionsRepository;
}> = async (app, { transactions }) => {
  app.addHook("onRequest", app.requireUser);

  app.get(
    "/api/users/credit-balance",
    {
      schema: {
        tags: ["credits"],
        security,
        summary: "The user's credits",
        response: { 200: creditBalanceResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, available: currentUser(request).credits }),
  );

  app.get(
    "/api/users/credit-history",
    {
      schema: {
        tags: ["credits"],
        security,
        summary:
          "Every movement of the user's credits, newest first (purchases, grants, calls, adjustments, refunds)",
        querystring: pageQuerySchema,
        response: { 200: creditHistoryResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      return {
        success: true as const,
        ...(await creditHistory(app.database.db, currentUser(request).id, page, limit)),
      };
    },
  );

  /** Credit purchases and subscription payments are one list, told apart by kind. */
  const paymentHistoryRoute = (url: string, kind: "credits" | "subscription", summary: string) =>
    app.get(
      url,
      {
        schema: {
          tags: ["payments"],
          security,
          summary,
          querystring: pageQuerySchema,
          response: { 200: userTransactionsResponseSchema, ...errors },
        },
      },
      async (request) => {
        const { page, limit } = request.query;
        const found = await transactions.userPayments(currentUser(request).id, kind, page, limit);
        return {
          success: true as const,
          data: found.user,
          transactions: found.user,
          pagination: found.pagination,
        };
      },
    );
  paymentHistoryRoute(
    "/api/payments/history",
    "credits",
    "The user's credit purchases, newest first",
  );
  paymentHistoryRoute(
    "/api/payments/subscription-history",
    "subscription",
    "The user's subscription payments, newest first",
  );

  app.get(
    "/api/subscriptions/history",
    {
      schema: {
        tags: ["subscriptions"],
        security,
        summary: "The user's subscription events, newest first",
        querystring: pageQuerySchema,
        response: { 200: userSubscriptionHistoryResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      return {
        success: true as const,
        ...(await transactions.userHistory(currentUser(request).id, page, limit)),
      };
    },
  );
};
