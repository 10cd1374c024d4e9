import { queryOptions } from "@tanstack/react-query";
import { type PushPreferences, type PushSubscribeRequest, routes } from "@twinline/contracts";
import { callRoute } from "@/lib/api";

/** The VAPID public key, the fan's choices, how many devices are on. */
export const pushQuery = () =>
  queryOptions({
    queryKey: ["push"] as const,
    queryFn: async ({ signal }) => (await callRoute(routes.push.state, { signal })).data,
  });

/** This browser's PushSubscription. */
export function saveSubscription(subscription: PushSubscriptionJSON) {
  // The browser's JSON types its fields optional; the server checks them (400 naming the field).
  return callRoute(routes.push.subscribe, { body: subscription as PushSubscribeRequest });
}

export function removeSubscription(endpoint: string) {
  return callRoute(routes.push.unsubscribe, { body: { endpoint } });
}

export function savePreferences(preferences: PushPreferences) {
  return callRoute(routes.push.preferences, { body: preferences });
}

/** Whether this tab is visible (no reply notification while it is). */
export function reportPresence(visible: boolean) {
  return callRoute(routes.push.presence, { body: { visible } });
}
