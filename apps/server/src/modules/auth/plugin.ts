import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../../config.ts";
import type { DatabaseConnection } from "../../db/client.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { createMailProvider, type MailProvider } from "../../providers/mail/index.ts";
import { adminRoutes } from "../admin/routes.ts";
import { type AdminService, createAdminService } from "../admin/service.ts";
import { totalSpentOf } from "../billing/transactions-repository.ts";
import { createChatRepository, utcDay } from "../chat/repository.ts";
import { subscriptionOf, subscriptionsOf } from "../users/mapper.ts";
import { createUsersRepository, type UsersRepository } from "../users/repository.ts";
import { createGoogleVerifier, type GoogleTokenVerifier } from "./google.ts";
import { createResetTokensRepository } from "./repository.ts";
import { authRoutes } from "./routes.ts";
import { type AuthService, createAuthService } from "./service.ts";
import { createTokenService } from "./tokens.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Accounts: sign-up, sign-in, passwords, the admin account. */
    auth: AuthService;
    /** The admin's user management and figures. */
    admin: AdminService;
    users: UsersRepository;
    /** Outgoing mail: SMTP when SMTP_URL is set, else the outbox table and a log line. */
    mail: MailProvider;
  }
}

export interface AccountsModuleOptions {
  config: Config;
  connection: DatabaseConnection;
  /** Replaces the Google verifier (tests check tokens signed by their own key). */
  googleVerifier?: GoogleTokenVerifier;
}

/**
 * Identity: the auth plugin (requireUser, requireAdmin), the account routes, the admin routes,
 * and the admin account of ADMIN_EMAIL/ADMIN_PASSWORD, created or updated at boot.
 * Needs the settings module (sign-up credits) and the rate-limit plugin registered before it.
 */
export const accountsModule = fp<AccountsModuleOptions>(
  async (app: FastifyInstance, options) => {
    const { config, connection } = options;
    const db = connection.db;
    const users = createUsersRepository(db);
    const tokens = createTokenService(config.jwtSecret);
    const mail = createMailProvider({
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      db,
      log: app.log,
    });
    const google =
      options.googleVerifier ??
      (config.googleClientId ? createGoogleVerifier(config.googleClientId) : undefined);
    const auth = createAuthService({
      db,
      users,
      resetTokens: createResetTokensRepository(db),
      tokens,
      mail,
      settings: app.settings,
      google,
      publicUrl: config.publicUrl,
      log: app.log,
    });
    const chat = createChatRepository(db);
    const admin = createAdminService({
      users,
      figuresOf: async (userId) => ({
        dailyMessageCount: (await chat.usage(userId, utcDay())).today,
        totalSpent: await totalSpentOf(db, userId),
        subscription: await subscriptionOf(db, userId),
      }),
      subscriptionsOf: (userIds) => subscriptionsOf(db, userIds),
    });

    app.decorate("auth", auth);
    app.decorate("admin", admin);
    app.decorate("users", users);
    app.decorate("mail", mail);
    // Registered before the database closes (hooks run in reverse): pending mail lands first.
    app.addHook("onClose", async () => {
      await auth.drain();
      await mail.close();
    });

    await app.register(authPlugin, { tokens, users });
    await app.register(authRoutes, { auth, googleClientId: config.googleClientId });
    await app.register(adminRoutes, { auth, admin });

    if (config.adminEmail && config.adminPassword) {
      const result = await auth.syncAdmin({
        email: config.adminEmail,
        password: config.adminPassword,
      });
      app.log.info(
        { email: config.adminEmail.toLowerCase(), result },
        "Admin account from ADMIN_EMAIL",
      );
    }
  },
  { name: "accounts", dependencies: ["settings", "rate-limit"] },
);
