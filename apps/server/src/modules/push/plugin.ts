import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../../config.ts";
import { startWatched } from "../../db/cached-by-notify.ts";
import { type Clock, systemClock } from "../../lib/clock.ts";
import { kickedPasses } from "../../lib/kicked-passes.ts";
import type { SettingsService } from "../settings/service.ts";
import { pushRoutes } from "./routes.ts";
import { createPushService, PUSH_DEVICES_CHANNEL, type PushService } from "./service.ts";

/** Pending notices a kick missed (a crash, a money event in the ledger) go within a minute. */
export const PUSH_SWEEP_CRON = "* * * * *";

export interface Push {
  service: PushService;
  /** Sends what is queued soon, in the background: called after a commit that queued a notice. */
  kick(): void;
  /** A reply was saved: its notice is queued (when due) and sent, in the background. */
  replySaved(userId: string, conversationId: string, messageId: string): void;
  /** Resolves when no kicked pass is running (tests wait for what a request caused). */
  idle(): Promise<void>;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The fan's Web Push notifications (docs/decisions/0082). */
    push: Push;
  }
}

/** The VAPID subject: the mail sender's address, else an https PUBLIC_URL, else a placeholder. */
function vapidSubject(config: Config): string {
  const address = config.mailFrom?.match(/<([^>]+)>/)?.[1] ?? config.mailFrom;
  if (address?.includes("@")) return `mailto:${address.trim()}`;
  if (config.publicUrl.startsWith("https://")) return config.publicUrl;
  return "mailto:postmaster@localhost";
}

/** The other modules' services push uses, passed by app.ts (docs/decisions/0097). */
export interface PushModuleDeps {
  settings: SettingsService;
}

export interface PushModuleOptions extends PushModuleDeps {
  config: Config;
  clock?: Clock;
  /** Run the sweep as a cron job (default true); false: tests call `push.service.sendDue()`. */
  sweeps?: boolean;
}

/**
 * Web Push (issue 27 item 3): the fan's routes under /api/push, the queue's sender (kicked after
 * a commit that queued a notice, and a cron job every minute on the job queue). Registered
 * before chat and billing, which queue notices.
 */
export const pushModule = fp<PushModuleOptions>(
  async (app: FastifyInstance, options) => {
    // A device added on any instance: the fans remembered without one are forgotten (on
    // PostgreSQL while the LISTEN connection is down, nothing is remembered).
    const { made: service, close: stopWatching } = await startWatched({
      connection: app.database,
      channel: PUSH_DEVICES_CHANNEL,
      make: (devicesWatched) =>
        createPushService({
          db: app.database.db,
          vapid: options.config.vapid,
          subject: vapidSubject(options.config),
          httpOrigin: options.config.webPushHttpOrigin,
          settings: options.settings,
          log: app.log,
          devicesWatched,
        }),
      onChange: (made) => made.devicesChanged(),
    });
    app.addHook("onClose", stopWatching);
    const passes = kickedPasses(
      () => service.sendDue(),
      (error) => app.log.error({ err: error }, "Sending push notifications failed"),
    );
    const { kick } = passes;
    /** Replies whose notice is being queued (idle waits for them too). */
    const queuing = new Set<Promise<void>>();
    const replySaved = (userId: string, conversationId: string, messageId: string) => {
      const queued: Promise<void> = service
        .replySaved(userId, conversationId, messageId)
        .then((added) => {
          if (added) kick();
        })
        .catch((error: unknown) => app.log.error({ err: error }, "Queuing a push failed"))
        .finally(() => queuing.delete(queued));
      queuing.add(queued);
    };
    const idle = async () => {
      while (passes.isRunning() || queuing.size > 0) {
        await Promise.all([...queuing]);
        await passes.idle();
      }
    };
    app.decorate<Push>("push", { service, kick, replySaved, idle });
    app.addHook("onClose", idle);
    if (options.sweeps !== false) {
      app.jobs.define("push.notices", () => service.sendDue(), {
        cron: PUSH_SWEEP_CRON,
        clock: options.clock ?? systemClock,
        retryLimit: 1,
        retryDelaySeconds: 30,
        expireInSeconds: 5 * 60,
      });
    }
    await app.register(pushRoutes, { push: service });
  },
  { name: "push", dependencies: ["accounts", "jobs"] },
);
