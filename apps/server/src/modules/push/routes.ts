import {
  PUSH_MESSAGES,
  pushChangedResponseSchema,
  pushPreferencesResponseSchema,
  pushPreferencesSchema,
  pushPresenceRequestSchema,
  pushStateResponseSchema,
  pushSubscribeRequestSchema,
  pushUnsubscribeRequestSchema,
} from "@twinline/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import type { PushService } from "./service.ts";

const errors = errorResponses(400, 401, 403);
const tags = ["push"];
const security = bearerSecurity;

/** The fan's Web Push: devices, choices, presence (docs/decisions/0082), behind requireUser. */
export const pushRoutes: FastifyPluginAsyncZod<{ push: PushService }> = async (app, { push }) => {
  app.addHook("onRequest", app.requireUser);

  app.get(
    "/api/push",
    {
      schema: {
        tags,
        security,
        summary: "The VAPID public key, the fan's notification choices and their devices' count",
        response: { 200: pushStateResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await push.state(currentUser(request).id),
    }),
  );

  app.post(
    "/api/push/subscriptions",
    {
      schema: {
        tags,
        security,
        summary: "Turns notifications on for this browser (its PushSubscription)",
        body: pushSubscribeRequestSchema,
        response: { 200: pushChangedResponseSchema, ...errors },
      },
    },
    async (request) => {
      await push.subscribe(currentUser(request).id, request.body);
      return { success: true as const, message: PUSH_MESSAGES.subscribed };
    },
  );

  app.delete(
    "/api/push/subscriptions",
    {
      schema: {
        tags,
        security,
        summary: "Turns notifications off for this browser",
        body: pushUnsubscribeRequestSchema,
        response: { 200: pushChangedResponseSchema, ...errors },
      },
    },
    async (request) => {
      await push.unsubscribe(currentUser(request).id, request.body.endpoint);
      return { success: true as const, message: PUSH_MESSAGES.unsubscribed };
    },
  );

  app.put(
    "/api/push/preferences",
    {
      schema: {
        tags,
        security,
        summary: "Which notifications the fan wants",
        body: pushPreferencesSchema,
        response: { 200: pushPreferencesResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: PUSH_MESSAGES.updated,
      data: await push.setPreferences(currentUser(request).id, request.body),
    }),
  );

  app.put(
    "/api/push/presence",
    {
      schema: {
        tags,
        security,
        summary: "Whether a tab of the fan is visible now (no reply notification while it is)",
        body: pushPresenceRequestSchema,
        response: { 200: pushChangedResponseSchema, ...errors },
      },
    },
    async (request) => {
      await push.setPresence(currentUser(request).id, request.body.visible);
      return { success: true as const, message: "OK" };
    },
  );
};
