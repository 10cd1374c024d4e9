import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../../config.ts";
import { authPlugin } from "../../plugins/auth.ts";
import type { SettingsService } from "../settings/service.ts";
import { createUsersRepository, type UsersRepository } from "../users/repository.ts";
import { createGoogleVerifier, type GoogleTokenVerifier } from "./google.ts";
import { createEndedTokensRepository, createResetTokensRepository } from "./repository.ts";
import { authRoutes } from "./routes.ts";
import { type AuthService, createAuthService } from "./service.ts";
import { createTokenService } from "./tokens.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Accounts: sign-up, sign-in, passwords, the admin account. */
    auth: AuthService;
    users: UsersRepository;
    /**
     * Adds a step run after every sign-up and sign-in of a user (e-mail, Google, password reset),
     * before the answer: the anonymous trial hands its conversation over here. A failing step is
     * logged; the sign-in stands.
     */
    onSignIn(listener: SignInListener): void;
  }
}

export type SignInListener = (request: FastifyRequest, userId: string) => Promise<void>;

/** The other modules' services accounts use, passed by app.ts (docs/decisions/0097). */
export interface AccountsModuleDeps {
  /** Sign-up credits and the site's name in mail. */
  settings: SettingsService;
}

export interface AccountsModuleOptions extends AccountsModuleDeps {
  config: Config;
  /** Replaces the Google verifier (tests check tokens signed by their own key). */
  googleVerifier?: GoogleTokenVerifier;
}

/**
 * Identity: the auth plugin (requireUser, requireAdmin), the account routes, and the admin
 * account of ADMIN_EMAIL/ADMIN_PASSWORD, created or updated at boot. The admin's own routes are
 * the admin module's (modules/admin/plugin.ts).
 * Needs the rate-limit and mail plugins registered before it.
 */
export const accountsModule = fp<AccountsModuleOptions>(
  async (app: FastifyInstance, options) => {
    const { config } = options;
    const db = app.database.db;
    const users = createUsersRepository(db);
    const tokens = createTokenService(config.jwtSecret);
    const google =
      options.googleVerifier ??
      (config.googleClientId ? createGoogleVerifier(config.googleClientId) : undefined);
    const endedTokens = createEndedTokensRepository(db);
    const auth = createAuthService({
      db,
      users,
      resetTokens: createResetTokensRepository(db),
      endedTokens,
      tokens,
      mail: app.mail,
      settings: options.settings,
      google,
      publicUrl: config.publicUrl,
      log: app.log,
    });

    app.decorate("auth", auth);
    app.decorate("users", users);
    const signInListeners: SignInListener[] = [];
    app.decorate("onSignIn", (listener: SignInListener) => {
      signInListeners.push(listener);
    });
    // Registered after the mail plugin (hooks run in reverse): pending mail is sent before
    // the transport and the database close.
    app.addHook("onClose", async () => {
      await auth.drain();
    });

    await app.register(authPlugin, { tokens, endedTokens });
    await app.register(authRoutes, {
      auth,
      googleClientId: config.googleClientId,
      secureCookies: config.publicUrl.startsWith("https:"),
      signInListeners,
    });

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
  { name: "accounts", dependencies: ["rate-limit", "mail"] },
);
