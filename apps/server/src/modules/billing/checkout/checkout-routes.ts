import {
  checkoutResponseSchema,
  checkoutSessionParamsSchema,
  checkoutSessionResponseSchema,
  createPackageCheckoutSchema,
  createPlanCheckoutSchema,
  sandboxPayRequestSchema,
  sandboxRedirectResponseSchema,
} from "@twinline/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../../plugins/auth.ts";
import { bearerSecurity, errorResponses } from "../../../plugins/openapi.ts";
import type { CheckoutService } from "./checkout-service.ts";

const errors = errorResponses(400, 401, 402, 403, 404, 409, 502);
const security = bearerSecurity;

/** The signed-in user's checkouts (user-side section 7): packages, plans, the sandbox page. */
export const checkoutRoutes: FastifyPluginAsyncZod<{
  checkout: CheckoutService;
  /** The origin the hosted page and the return pages are at, for this request. */
  appOrigin: (request: FastifyRequest) => string;
}> = async (app, { checkout, appOrigin }) => {
  app.addHook("onRequest", app.requireUser);

  app.post(
    "/api/payments/create-checkout-session",
    {
      schema: {
        tags: ["payments"],
        security,
        summary:
          "A hosted checkout for a credit package (credits land when the payment does); " +
          "consentVersion: the version of the delivery consent the fan ticked, stored with its text",
        body: createPackageCheckoutSchema,
        response: { 200: checkoutResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await checkout.packageCheckout(
        currentUser(request),
        request.body.packageId,
        appOrigin(request),
        { version: request.body.consentVersion, ipAddress: request.ip },
        request.body.promotionCode,
      )),
    }),
  );

  app.post(
    "/api/subscriptions/create-checkout",
    {
      schema: {
        tags: ["subscriptions"],
        security,
        summary:
          "A hosted checkout for a plan (409 while a subscription is in force); consentVersion: " +
          "the version of the renewal terms the fan ticked, stored with their text",
        body: createPlanCheckoutSchema,
        response: { 200: checkoutResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await checkout.planCheckout(
        currentUser(request),
        request.body.planId,
        appOrigin(request),
        { version: request.body.consentVersion, ipAddress: request.ip },
        request.body.promotionCode,
      )),
    }),
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
};
