import { PUSH_MESSAGES, routes } from "@twinline/contracts";
import type { FastifyPluginAsync } from "fastify";
import { currentUser } from "../../plugins/auth.ts";
import { registerRoute } from "../../plugins/routes.ts";
import type { PushService } from "./service.ts";

/** The fan's Web Push: devices, choices, presence (docs/decisions/0082), behind requireUser. */
export const pushRoutes: FastifyPluginAsync<{ push: PushService }> = async (app, { push }) => {
  registerRoute(app, routes.push.state, async (request) => ({
    success: true as const,
    data: await push.state(currentUser(request).id),
  }));

  registerRoute(app, routes.push.subscribe, async (request) => {
    await push.subscribe(currentUser(request).id, request.body);
    return { success: true as const, message: PUSH_MESSAGES.subscribed };
  });

  registerRoute(app, routes.push.unsubscribe, async (request) => {
    await push.unsubscribe(currentUser(request).id, request.body.endpoint);
    return { success: true as const, message: PUSH_MESSAGES.unsubscribed };
  });

  registerRoute(app, routes.push.preferences, async (request) => ({
    success: true as const,
    message: PUSH_MESSAGES.updated,
    data: await push.setPreferences(currentUser(request).id, request.body),
  }));

  registerRoute(app, routes.push.presence, async (request) => {
    await push.setPresence(currentUser(request).id, request.body.visible);
    return { success: true as const, message: "OK" };
  });
};
