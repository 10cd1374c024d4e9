import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../../config.ts";
import { type Clock, systemClock } from "../../lib/clock.ts";
import { kickedPasses } from "../../lib/kicked-passes.ts";
import type { SettingsService } from "../settings/service.ts";
import { type ContactLimits, contactRoutes, DEFAULT_CONTACT_LIMITS } from "./contact-routes.ts";
import { queueRenewalReminders } from "./renewal-reminders.ts";
import {
  type FanMailSenderDeps,
  type SendOutcome,
  sendDueFanEmails,
  unsubscribeUrlOf,
} from "./sender.ts";
import { unsubscribeRoutes } from "./unsubscribe-routes.ts";
import { createUnsubscribeTokens } from "./unsubscribe-token.ts";

/**
 * How often the sweep queues renewal reminders and sends what is due (retries, mail a crash left
 * behind). Fresh mail goes at once by the kick; a test that moves the billing clock over a day
 * runs this pass 288 times, not 1440 (every 5 minutes, as a cron job).
 */
export const FAN_MAIL_SWEEP_CRON = "*/5 * * * *";

export interface FanMail {
  /** One pass of the sender (tests await it; a job queue may run it). */
  sendDue(): Promise<SendOutcome>;
  /** Runs the sender soon, in the background: called after a commit that queued mail. */
  kick(): void;
  /** Resolves when no kicked pass is running (tests wait for the mail a request caused). */
  idle(): Promise<void>;
  /** The sweep's pass: renewal reminders queued by the clock, then the sender. */
  sweep(): Promise<SendOutcome>;
  /** The unsubscribe link of a fan (tests follow it). */
  unsubscribeUrl(userId: string): string;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The fan's e-mails: queue, sender, sweep (issue 26, docs/decisions/0066). */
    fanMail: FanMail;
  }
}

/** The other modules' services fan mail uses, passed by app.ts (docs/decisions/0097). */
export interface FanMailModuleDeps {
  settings: SettingsService;
}

export interface FanMailModuleOptions extends FanMailModuleDeps {
  config: Config;
  /** THE billing clock: renewal reminders and retries are timed by it. */
  clock?: Clock;
  /** Run the sweep on the clock's timers (default true); false: tests call `fanMail.sweep()`. */
  sweeps?: boolean;
  contactLimits?: Partial<ContactLimits>;
}

/**
 * The e-mails a fan can rely on (issue 26 item 4) and the contact form (item 6). Money events
 * queue their mail in their own transactions (enqueue.ts); this module sends the queue: at once
 * after such a commit (`kick`) and every 5 minutes from the sweep, which also queues the reminders
 * of yearly plans. Needs the mail plugin.
 */
export const fanMailModule = fp<FanMailModuleOptions>(
  async (app: FastifyInstance, options) => {
    const clock = options.clock ?? systemClock;
    const { publicUrl } = options.config;
    const tokens = createUnsubscribeTokens(options.config.jwtSecret);
    const deps: FanMailSenderDeps = {
      db: app.database.db,
      mail: app.mail,
      settings: options.settings,
      publicUrl,
      tokens,
      clock,
      log: app.log,
    };
    const sendDue = () => sendDueFanEmails(deps);

    const { kick, idle } = kickedPasses(sendDue, (error) =>
      app.log.error({ err: error }, "Sending queued e-mail failed"),
    );
    const sweep = async () => {
      await queueRenewalReminders(app.database.db, new Date(clock.now()));
      return sendDue();
    };

    app.decorate<FanMail>("fanMail", {
      sendDue,
      kick,
      idle,
      sweep,
      unsubscribeUrl: (userId) => unsubscribeUrlOf(publicUrl, tokens.sign(userId)),
    });
    // Before the mail provider and the database close (hooks run in reverse): a pass finishes.
    app.addHook("onClose", idle);

    if (options.sweeps !== false) {
      // A durable job (docs/decisions/0072): each occurrence runs once across instances.
      app.jobs.define("mail.fan-emails", sweep, {
        cron: FAN_MAIL_SWEEP_CRON,
        clock,
        retryLimit: 2,
        retryDelaySeconds: 30,
        expireInSeconds: 10 * 60,
      });
    }

    await app.register(unsubscribeRoutes, { tokens, settings: options.settings });
    await app.register(contactRoutes, {
      settings: options.settings,
      limits: { ...DEFAULT_CONTACT_LIMITS, ...options.contactLimits },
      kick,
    });
  },
  { name: "fan-mail", dependencies: ["accounts", "rate-limit", "jobs"] },
);
