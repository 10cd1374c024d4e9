import { PUSH_MESSAGES, type PushSubscribeRequest } from "@twinline/contracts";
import { and, eq } from "drizzle-orm";
import { writeAndNotify } from "../../../db/cached-by-notify.ts";
import { pushPreferences, pushSubscriptions } from "../../../db/schema/index.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { PushDeps } from "./deps.ts";
import { forgetDeviceless } from "./deviceless.ts";

/** Notified in the transaction of every device added or moved to a fan (plugin.ts listens). */
export const PUSH_DEVICES_CHANNEL = "push_devices_changed";

/** Whether an endpoint may be pushed to: https, or the one http origin configured for tests. */
export function acceptableEndpoint(endpoint: string, httpOrigin: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return url.protocol === "https:" || (httpOrigin !== undefined && url.origin === httpOrigin);
}

/** Adds (or moves to this fan) the browser's subscription. */
export async function subscribe(
  deps: PushDeps,
  userId: string,
  body: PushSubscribeRequest,
): Promise<void> {
  if (!acceptableEndpoint(body.endpoint, deps.httpOrigin)) {
    throw new HttpError(400, PUSH_MESSAGES.badEndpoint, { field: "endpoint" });
  }
  // Notified: every instance forgets the fans it knew without a device.
  await writeAndNotify(deps.db, PUSH_DEVICES_CHANNEL, async (tx) => {
    await tx
      .insert(pushSubscriptions)
      .values({
        userId,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
      })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId, p256dh: body.keys.p256dh, auth: body.keys.auth },
      });
    await tx.insert(pushPreferences).values({ userId }).onConflictDoNothing();
  });
}

/** A device was added somewhere (PUSH_DEVICES_CHANNEL): no fan is known deviceless now. */
export function devicesChanged(deps: PushDeps): void {
  forgetDeviceless(deps.deviceless);
}

export async function unsubscribe(deps: PushDeps, userId: string, endpoint: string): Promise<void> {
  await deps.db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}
