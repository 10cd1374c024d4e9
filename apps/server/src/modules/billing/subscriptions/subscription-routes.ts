import { routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { currentUser } from "../../../plugins/auth.ts";
import { registerRoute } from "../../../plugins/routes.ts";
import type { SubscriptionsReader } from "./subscriptions-reader.ts";
import type { SubscriptionsService } from "./subscriptions-service.ts";

export interface SubscriptionRoutesOptions {
  subscriptions: SubscriptionsService;
  reader: SubscriptionsReader;
}

/** The signed-in user's subscription (user-side sections 3, 4): read, change plan, cancel. */
export const subscriptionRoutes: FastifyPluginAsync<SubscriptionRoutesOptions> = async (
  app,
  { subscriptions, reader },
) => {
  registerRoute(app, routes.billing.mySubscription, async (request) => {
    const current = await reader.current(currentUser(request).id);
    return { success: true as const, data: current, subscription: current };
  });

  registerRoute(app, routes.billing.upgrade, async (request) =>
    subscriptions.upgrade(currentUser(request), request.body.planId),
  );

  registerRoute(app, routes.billing.cancel, async (request) =>
    subscriptions.cancel(currentUser(request)),
  );

  registerRoute(app, routes.billing.resume, async (request) =>
    subscriptions.resumeOwn(currentUser(request)),
  );
};
