import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../../config.ts";
import { type Clock, systemClock } from "../../lib/clock.ts";
import type { AuditActor } from "../audit/in-transaction.ts";
import type { AuthService } from "../auth/service.ts";
import type { Billing } from "../billing/plugin.ts";
import type { UsersRepository } from "../users/repository.ts";
import type { VoiceService } from "../voice/service.ts";
import { deleteAccount } from "./deletion.ts";
import { type AccountDeletion, privacyAdminRoutes, privacyUserRoutes } from "./routes.ts";
import { createDataExportsService, type DataExportsService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** "Download my data": requests, the worker's runs, downloads (decision 0062). */
    dataExports: DataExportsService;
    /** "Delete account", by the fan or an admin on request (decision 0063). */
    accountDeletion: AccountDeletion;
  }
}

/** The other modules' services privacy uses, passed by app.ts (docs/decisions/0097). */
export interface PrivacyModuleDeps {
  /** The fan confirms a deletion with their password (or Google). */
  auth: Pick<AuthService, "confirmIdentity">;
  users: UsersRepository;
  /** A deleted account's subscriptions end at once... */
  billing: { subscriptions: Pick<Billing["subscriptions"], "cancelAllNow"> };
  /** ...and its live call too. */
  voice: Pick<VoiceService, "endCallOf">;
}

export interface PrivacyModuleOptions extends PrivacyModuleDeps {
  config: Config;
  /** The exports' clock (expiry after 7 days; tests move a manual one). */
  clock?: Clock;
}

/** Expired exports' files are removed (and the queue looked at) this often. */
const EXPORT_SWEEP_CRON = "0 * * * *";

/**
 * Issue 26: the fan's "Download my data" and "Delete account", and the admin's same acts on
 * request. Needs accounts, uploads and audit registered before it.
 */
export const privacyModule = fp<PrivacyModuleOptions>(
  async (app: FastifyInstance, options) => {
    const db = app.database.db;
    const clock = options.clock ?? systemClock;
    const { auth, users, billing, voice } = options;
    const exports = createDataExportsService({
      db,
      files: app.uploads.privateFiles,
      temporaryDirectory: app.uploads.temporaryDirectory,
      mail: app.mail,
      log: app.log,
      clock,
      publicUrl: options.config.publicUrl,
    });
    app.decorate("dataExports", exports);
    const accountDeletion: AccountDeletion = {
      delete: (userId: string, actor: AuditActor | null) =>
        deleteAccount(
          {
            db,
            log: app.log,
            cancelSubscriptions: (id) => billing.subscriptions.cancelAllNow(id),
            endSessions: (id) => users.update(id, { isActive: false, bumpTokens: true }),
            endCall: (id) => voice.endCallOf(id),
            publicFiles: app.uploads.publicFiles,
            privateFiles: app.uploads.privateFiles,
          },
          userId,
          actor,
        ),
    };
    app.decorate("accountDeletion", accountDeletion);

    // Hourly, as a job on the queue (docs/decisions/0072): builds what a crash left queued and
    // removes expired files.
    app.jobs.define("privacy.data-exports", () => exports.work(), {
      cron: EXPORT_SWEEP_CRON,
      clock,
      retryLimit: 2,
      retryDelaySeconds: 60,
      expireInSeconds: 60 * 60,
    });
    app.addHook("onReady", async () => exports.resume());
    app.addHook("onClose", async () => exports.settled());

    await app.register(privacyUserRoutes, { exports, accountDeletion, auth });
    // Guarded for admins by their definitions (routes.privacy, decision 0086).
    await app.register(privacyAdminRoutes, { exports, accountDeletion, users });
  },
  { name: "privacy", dependencies: ["accounts", "uploads", "audit", "jobs"] },
);
