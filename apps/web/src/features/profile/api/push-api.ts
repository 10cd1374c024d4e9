import { queryOptions } from "@tanstack/react-query";
import {
  type PushPreferences,
  pushChangedResponseSchema,
  pushPreferencesResponseSchema,
  pushStateResponseSchema,
} from "@twinline/contracts";
import { api } from "@/lib/api-client";

/** GET /api/push: the VAPID public key, the fan's choices, how many devices are on. */
export const pushQuery = () =>
  queryOptions({
    queryKey: ["push"] as const,
    queryFn: async ({ signal }) =>
      (await api.get("/api/push", { signal, schema: pushStateResponseSchema })).data,
  });

/** POST /api/push/subscriptions: this browser's PushSubscription. */
export function saveSubscription(subscription: PushSubscriptionJSON) {
  return api.post("/api/push/subscriptions", subscription, { schema: pushChangedResponseSchema });
}

export function removeSubscription(endpoint: string) {
  return api.delete("/api/push/subscriptions", {
    body: { endpoint },
    schema: pushChangedResponseSchema,
  });
}

export function savePreferences(preferences: PushPreferences) {
  return api.put("/api/push/preferences", preferences, { schema: pushPreferencesResponseSchema });
}

/** PUT /api/push/presence: whether this tab is visible (no reply notification while it is). */
export function reportPresence(visible: boolean) {
  return api.put("/api/push/presence", { visible }, { schema: pushChangedResponseSchema });
}
