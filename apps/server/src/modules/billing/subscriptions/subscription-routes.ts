import {
  cancelSubscriptionResponseSchema,
  changePlanRequestSchema,
  mySubscriptionResponseSchema,
  planChangeResultSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../../plugins/auth.ts";
import { bearerSecurity, errorResponses } from "../../../plugins/openapi.ts";
import type { SubscriptionsReader } from "./subscriptions-reader.ts";
import type { SubscriptionsService } from "./subscriptions-service.ts";

const errors = errorResponses(400, 401, 402, 403, 404, 409, 502);
const security = bearerSecurity;

export interface SubscriptionRoutesOptions {
  subscriptions: SubscriptionsService;
  reader: SubscriptionsReader;
}

/** The signed-in user's subscription (user-side sections 3, 4): read, change plan, cancel. */
export const subscriptionRoutes: FastifyPluginAsyncZod<SubscriptionRoutesOptions> = async (
  app,
  { subscriptions, reader },
) => {
  app.addHook("onRequest", app.requireUser);

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

  app.post(
    "/api/subscriptions/resume",
    {
      schema: {
        tags: ["subscriptions"],
        security,
        summary:
          "Takes back a cancellation while the plan is still in force: it renews again " +
          "(400 when it is not set to cancel)",
        response: { 200: cancelSubscriptionResponseSchema, ...errors },
      },
    },
    async (request) => subscriptions.resumeOwn(currentUser(request)),
  );
};
