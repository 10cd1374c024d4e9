import {
  adminCreditTransactionsQuerySchema,
  adminCreditTransactionsResponseSchema,
  adminRevenueQuerySchema,
  adminRevenueResponseSchema,
  adminSubscriptionHistoryEventResponseSchema,
  adminSubscriptionHistoryQuerySchema,
  adminSubscriptionHistoryResponseSchema,
  adminSubscriptionTransactionsQuerySchema,
  adminSubscriptionTransactionsResponseSchema,
  adminUserIdParamsSchema,
  adminUserTransactionsQuerySchema,
  BILLING_MESSAGES,
  billingIdParamsSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { HttpError } from "../../../plugins/errors.ts";
import { bearerSecurity, errorResponses } from "../../../plugins/openapi.ts";
import type { TransactionsRepository } from "./transactions-repository.ts";

const errors = errorResponses(400, 401, 403, 404);
const tags = ["admin billing"];
const security = bearerSecurity;

/** The admin's money screens: registered in the billing module's admin-guarded scope. */
export const adminBillingRoutes: FastifyPluginAsyncZod<{
  transactions: TransactionsRepository;
}> = async (app, { transactions }) => {
  app.get(
    "/api/admin/credit-transactions",
    {
      schema: {
        tags,
        security,
        summary: "Credit purchases: filtered by status, user and date range; sorted; paged",
        querystring: adminCreditTransactionsQuerySchema,
        response: { 200: adminCreditTransactionsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await transactions.adminCreditTransactions(request.query)),
    }),
  );

  app.get(
    "/api/admin/subscription-transactions",
    {
      schema: {
        tags,
        security,
        summary: "Subscription payments: filtered by status, user and date range; sorted; paged",
        querystring: adminSubscriptionTransactionsQuerySchema,
        response: { 200: adminSubscriptionTransactionsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await transactions.adminSubscriptionTransactions(request.query)),
    }),
  );

  app.get(
    "/api/admin/subscription-history",
    {
      schema: {
        tags,
        security,
        summary:
          "Subscription events: filtered by event type, status, user and date range; sorted; paged",
        querystring: adminSubscriptionHistoryQuerySchema,
        response: { 200: adminSubscriptionHistoryResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await transactions.adminSubscriptionHistory(request.query)),
    }),
  );

  app.get(
    "/api/admin/subscription-history/:id",
    {
      schema: {
        tags,
        security,
        summary: "One subscription event",
        params: billingIdParamsSchema,
        response: { 200: adminSubscriptionHistoryEventResponseSchema, ...errors },
      },
    },
    async (request) => {
      const event = await transactions.historyEvent(request.params.id);
      if (!event) throw new HttpError(404, BILLING_MESSAGES.historyEventNotFound);
      return { success: true as const, data: event };
    },
  );

  app.get(
    "/api/admin/users/:userId/transactions",
    {
      schema: {
        tags,
        security,
        summary: "One user's credit purchases: searched, sorted (newest first) and paged",
        params: adminUserIdParamsSchema,
        querystring: adminUserTransactionsQuerySchema,
        response: { 200: adminCreditTransactionsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { page, limit, ...options } = request.query;
      const found = await transactions.userPayments(
        request.params.userId,
        "credits",
        page,
        limit,
        options,
      );
      return { success: true as const, data: found.adminCredits, pagination: found.pagination };
    },
  );

  app.get(
    "/api/admin/users/:userId/subscription-transactions",
    {
      schema: {
        tags,
        security,
        summary: "One user's subscription payments: searched, sorted (newest first) and paged",
        params: adminUserIdParamsSchema,
        querystring: adminUserTransactionsQuerySchema,
        response: { 200: adminSubscriptionTransactionsResponseSchema, ...errors },
      },
    },
    async (request) => {
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
    },
  );

  app.get(
    "/api/admin/revenue",
    {
      schema: {
        tags,
        security,
        summary: "Revenue by UTC day and month (successful payments), and paying users",
        querystring: adminRevenueQuerySchema,
        response: { 200: adminRevenueResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await transactions.revenue(request.query.kind),
    }),
  );
};
