import { queuePush } from "../enqueue.ts";
import type { PushDeps } from "./deps.ts";
import { rememberDeviceless } from "./deviceless.ts";

/**
 * Queues the "reply while away" notice of a saved reply (not in a transaction). A fan known to
 * have no device is not asked about; one found so is remembered while every addition of a
 * device is heard of (deps.devicesWatched).
 */
export async function replySaved(
  deps: PushDeps,
  userId: string,
  conversationId: string,
  messageId: string,
): Promise<boolean> {
  const { deviceless, devicesWatched } = deps;
  const watched = devicesWatched();
  if (watched && deviceless.fans.has(userId)) return false;
  const askedAt = deviceless.generation;
  const { queued, subscribed } = await queuePush(deps.db, {
    kind: "reply",
    key: `reply:${messageId}`,
    userId,
    payload: { conversationId },
  });
  if (!subscribed && watched && devicesWatched()) rememberDeviceless(deviceless, userId, askedAt);
  return queued;
}
