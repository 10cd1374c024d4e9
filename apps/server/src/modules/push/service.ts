import { bindFirst } from "../../lib/bind-first.ts";
import { type PushServiceDeps, pushDeps } from "./service/deps.ts";
import { devicesChanged, subscribe, unsubscribe } from "./service/devices.ts";
import { replySaved } from "./service/notices.ts";
import { pushState, setPreferences, setPresence } from "./service/preferences.ts";
import { sendDue } from "./service/sender.ts";

export type { PushServiceDeps } from "./service/deps.ts";
export { acceptableEndpoint, PUSH_DEVICES_CHANNEL } from "./service/devices.ts";

/**
 * Web Push for fans (issue 27 item 3, docs/decisions/0082): their devices and choices
 * (service/devices.ts, service/preferences.ts), the presence of a visible tab, the notice of a
 * reply while away (service/notices.ts), and the sender of the queued notices (push_notices,
 * service/sender.ts), bound to the options and this instance's deviceless fans.
 */
export function createPushService(options: PushServiceDeps) {
  const deps = pushDeps(options);
  return {
    publicKey: deps.vapid.publicKey,
    ...bindFirst(deps, {
      sendDue,
      state: pushState,
      subscribe,
      devicesChanged,
      unsubscribe,
      setPreferences,
      setPresence,
      replySaved,
    }),
  };
}

export type PushService = ReturnType<typeof createPushService>;
