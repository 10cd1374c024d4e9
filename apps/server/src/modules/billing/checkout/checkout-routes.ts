import { routes } from "@twinline/contracts";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { currentUser } from "../../../plugins/auth.ts";
import { registerRoute } from "../../../plugins/routes.ts";
import type { CheckoutService } from "./checkout-service.ts";

/**
 * The signed-in user's checkouts (user-side section 7): packages, plans, the sandbox page; the
 * fan's guard from their definitions (routes.billing).
 */
export const checkoutRoutes: FastifyPluginAsync<{
  checkout: CheckoutService;
  /** The origin the hosted page and the return pages are at, for this request. */
  appOrigin: (request: FastifyRequest) => string;
}> = async (app, { checkout, appOrigin }) => {
  registerRoute(app, routes.billing.packageCheckout, async (request) => ({
    success: true as const,
    ...(await checkout.packageCheckout(
      currentUser(request),
      request.body.packageId,
      appOrigin(request),
      { version: request.body.consentVersion, ipAddress: request.ip },
      request.body.promotionCode,
    )),
  }));

  registerRoute(app, routes.billing.planCheckout, async (request) => ({
    success: true as const,
    ...(await checkout.planCheckout(
      currentUser(request),
      request.body.planId,
      appOrigin(request),
      { version: request.body.consentVersion, ipAddress: request.ip },
      request.body.promotionCode,
    )),
  }));

  /** The return pages and the sandbox page read the same view of the user's session. */
  for (const route of [routes.billing.checkoutSession, routes.billing.sandboxSession]) {
    registerRoute(app, route, async (request) => ({
      success: true as const,
      data: await checkout.sessionView(currentUser(request), request.params.id),
    }));
  }

  registerRoute(app, routes.billing.sandboxPay, async (request) => ({
    success: true as const,
    ...(await checkout.sandboxPay(currentUser(request), request.params.id, request.body)),
  }));

  registerRoute(app, routes.billing.sandboxCancel, async (request) => ({
    success: true as const,
    ...(await checkout.sandboxCancel(currentUser(request), request.params.id)),
  }));
};
