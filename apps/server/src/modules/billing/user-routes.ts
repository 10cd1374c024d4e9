import {
  cancelSubscriptionResponseSchema,
  changePlanRequestSchema,
  checkoutResponseSchema,
  checkoutSessionParamsSchema,
  checkoutSessionResponseSchema,
  createPackageCheckoutSchema,
  createPlanCheckoutSchema,
  creditBalanceResponseSchema,
  creditHistoryResponseSchema,
  mySubscriptionResponseSchema,
  pageQuerySchema,
  planChangeResultSchema,
  sandboxPayRequestSchema,
  sandboxRedirectResponseSchema,
  userSubscriptionHistoryResponseSchema,
  userTransactionsResponseSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import { creditHistory } from "../credits/history.ts";
import type { CheckoutService } from "./checkout-service.ts";
import type { SubscriptionsReader } from "./subscriptions-reader.ts";
import type { SubscriptionsService } from "./subscriptions-service.ts";
import type { TransactionsRepository } from "./transactions-repository.ts";

const errors = errorResponses(400, 401, 402, 403, 404, 409, 502);
const security = bearerSecurity;

export interface UserBillingRoutesOptions {
  checkout: CheckoutService;
  subscriptions: SubscriptionsService;
  reader: SubscriptionsReader;
  transactions: TransactionsRepository;
}

/** The signed-in user's billing (user-side section 7): every route behind requireUser. */
export const userBillingRoutes: FastifyPluginAsyncZod<UserBillingRoutesOptions> = async (
  app,
  { checkout, subscriptions, reader, transactions },
) => {
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

  app.post(
    "/api/payments/create-checkout-session",
    {
      schema: {
        tags: ["payments"],
        security,
        summary: "A hosted checkout for a credit package (credits land when the payment does)",
        body: createPackageCheckoutSchema,
        response: { 200: checkoutResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await checkout.packageCheckout(currentUser(request), request.body.packageId)),
    }),
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

  /** The return pages and the sandbox page read the same view of the user's session. */
  const sessionViewRoute = (url: string, summary: string) =>
    app.get(
      url,
      {
        schema: {
          tags: ["payments"],
          security,
          summary,
          params: checkoutSessionParamsSchema,
          response: { 200: checkoutSessionResponseSchema, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await checkout.sessionView(currentUser(request), request.params.id),
      }),
    );
  sessionViewRoute(
    "/api/payments/checkout-sessions/:id",
    "One of the user's checkout sessions: what it sells and whether it is fulfilled",
  );
  sessionViewRoute(
    "/api/payments/sandbox/sessions/:id",
    "The sandbox checkout page's session (what is bought, amount, status)",
  );

  app.post(
    "/api/payments/sandbox/sessions/:id/pay",
    {
      schema: {
        tags: ["payments"],
        security,
        summary:
          "Pays a sandbox session with a test card (4242 4242 4242 4242 succeeds; " +
          "4000 0000 0000 0002 is declined with 402)",
        params: checkoutSessionParamsSchema,
        body: sandboxPayRequestSchema,
        response: { 200: sandboxRedirectResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await checkout.sandboxPay(currentUser(request), request.params.id, request.body)),
    }),
  );

  app.post(
    "/api/payments/sandbox/sessions/:id/cancel",
    {
      schema: {
        tags: ["payments"],
        security,
        summary: "Leaves a sandbox session unpaid; answers the cancel URL",
        params: checkoutSessionParamsSchema,
        response: { 200: sandboxRedirectResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await checkout.sandboxCancel(currentUser(request), request.params.id)),
    }),
  );

  app.get(
    "/api/subscriptions/my-subscription",
    {
      schema: {
        tags: ["subscriptions"],
        security,
        summary: "The user's current subscription (status inactive when none)",
        response: { 200: mySubscriptionResponseSchema, ...errors },
      },
    },
    async (request) => {
      const current = await reader.current(currentUser(request).id);
      return { success: true as const, data: current, subscription: current };
    },
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

  app.post(
    "/api/subscriptions/create-checkout",
    {
      schema: {
        tags: ["subscriptions"],
        security,
        summary: "A hosted checkout for a plan (409 while a subscription is in force)",
        body: createPlanCheckoutSchema,
        response: { 200: checkoutResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await checkout.planCheckout(currentUser(request), request.body.planId)),
    }),
  );

  app.post(
    "/api/subscriptions/upgrade",
    {
      schema: {
        tags: ["subscriptions"],
        security,
        summary: "Changes the plan at once, with proration (the amount due now is proratedAmount)",
        body: changePlanRequestSchema,
        response: { 200: planChangeResultSchema, ...errors },
      },
    },
    async (request) => subscriptions.upgrade(currentUser(request), request.body.planId),
  );

  app.post(
    "/api/subscriptions/cancel",
    {
      schema: {
        tags: ["subscriptions"],
        security,
        summary: "Cancels at the end of the period already paid for",
        response: { 200: cancelSubscriptionResponseSchema, ...errors },
      },
    },
    async (request) => subscriptions.cancel(currentUser(request)),
  );
};
