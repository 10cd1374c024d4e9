import { keepNewest } from "../../../lib/keep-newest.ts";

/** Fans known to have no device, at most this many kept (the oldest forgotten first). */
export const DEVICELESS_LIMIT = 10_000;

/**
 * Most fans never turn notifications on, and every reply asked the database whether its fan
 * had (issue 28 item 5: one of a chat send's six statements). A fan found without a device is
 * remembered until a device is added anywhere (forgetDeviceless, on PUSH_DEVICES_CHANNEL); the
 * generation stops a reply that asked before that addition from remembering the old answer.
 * One per service instance: what its use cases share.
 */
export interface DevicelessFans {
  readonly fans: Set<string>;
  /** Counts the additions heard of: an answer read under an older one is stale. */
  generation: number;
}

export function createDevicelessFans(): DevicelessFans {
  return { fans: new Set<string>(), generation: 0 };
}

/** Remembers a fan found without a device, unless a device was added since `askedAt`. */
export function rememberDeviceless(known: DevicelessFans, userId: string, askedAt: number): void {
  if (askedAt !== known.generation) return;
  known.fans.add(userId);
  keepNewest(known.fans, DEVICELESS_LIMIT);
}

/** A device was added somewhere: no fan is known deviceless now. */
export function forgetDeviceless(known: DevicelessFans): void {
  known.generation++;
  known.fans.clear();
}
