import type { PublicSettings } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../../db/client.ts";
import type { VapidKeys } from "../../../secrets.ts";
import { createDevicelessFans, type DevicelessFans } from "./deviceless.ts";

export interface PushServiceDeps {
  db: Database;
  vapid: VapidKeys;
  /** The VAPID subject: a mailto: or https: URL naming the operator. */
  subject: string;
  /** An http origin accepted as a push endpoint (a local test push service); else https only. */
  httpOrigin: string | undefined;
  settings: { get(): Promise<Readonly<PublicSettings>> };
  log: FastifyBaseLogger;
  /**
   * Whether every device added is heard of (PUSH_DEVICES_CHANNEL's watch, plugin.ts): only then
   * are the fans without one remembered. None: never (each reply asks the database).
   */
  devicesWatched?: () => boolean;
}

/** The options with their default filled in, and this instance's deviceless fans. */
export type PushDeps = PushServiceDeps & {
  devicesWatched: () => boolean;
  deviceless: DevicelessFans;
};

export function pushDeps(options: PushServiceDeps): PushDeps {
  return {
    ...options,
    devicesWatched: options.devicesWatched ?? (() => false),
    deviceless: createDevicelessFans(),
  };
}
