import {
  pushChangedResponseSchema,
  pushPreferencesResponseSchema,
  pushPreferencesSchema,
  pushPresenceRequestSchema,
  pushStateResponseSchema,
  pushSubscribeRequestSchema,
  pushUnsubscribeRequestSchema,
} from "../push";
import { defineRoute } from "./define";

const tags = ["push"];
const errors = [400, 401, 403];

/** The fan's Web Push: devices, choices, presence (apps/server/src/modules/push, decision 0082). */
export const pushRoutes = {
  state: defineRoute({
    method: "GET",
    path: "/api/push",
    access: "fan",
    tags,
    summary: "The VAPID public key, the fan's notification choices and their devices' count",
    response: pushStateResponseSchema,
    errors,
  }),
  subscribe: defineRoute({
    method: "POST",
    path: "/api/push/subscriptions",
    access: "fan",
    tags,
    summary: "Turns notifications on for this browser (its PushSubscription)",
    body: pushSubscribeRequestSchema,
    response: pushChangedResponseSchema,
    errors,
  }),
  unsubscribe: defineRoute({
    method: "DELETE",
    path: "/api/push/subscriptions",
    access: "fan",
    tags,
    summary: "Turns notifications off for this browser",
    body: pushUnsubscribeRequestSchema,
    response: pushChangedResponseSchema,
    errors,
  }),
  preferences: defineRoute({
    method: "PUT",
    path: "/api/push/preferences",
    access: "fan",
    tags,
    summary: "Which notifications the fan wants",
    body: pushPreferencesSchema,
    response: pushPreferencesResponseSchema,
    errors,
  }),
  presence: defineRoute({
    method: "PUT",
    path: "/api/push/presence",
    access: "fan",
    tags,
    summary: "Whether a tab of the fan is visible now (no reply notification while it is)",
    body: pushPresenceRequestSchema,
    response: pushChangedResponseSchema,
    errors,
  }),
} as const;
