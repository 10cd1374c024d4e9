import { createHash, randomBytes } from "node:crypto";
import {
  AGE_MESSAGES,
  AUTH_MESSAGES,
  PRIVACY_MESSAGES,
  UNDER_AGE_CODE,
  type User,
} from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import type { UserRow } from "../../db/schema/index.ts";
import { ageRefusal, isUnderAge } from "../../lib/age-gate.ts";
import { HttpError } from "../../plugins/errors.ts";
import type { MailProvider } from "../../providers/mail/index.ts";
import { applyCreditMovement } from "../credits/ledger.ts";
import type { SettingsService } from "../settings/service.ts";
import { toUser } from "../users/mapper.ts";
import type { UsersRepository } from "../users/repository.ts";
import { subscriptionOf } from "../users/subscription-state.ts";
import { syncAdminAccount } from "./admin-account.ts";
import type { GoogleTokenVerifier } from "./google.ts";
import { hashPassword, verifyAgainstDummy, verifyPassword } from "./passwords.ts";
import type { EndedTokensRepository, ResetTokensRepository } from "./repository.ts";
import type { TokenClaims, TokenService } from "./tokens.ts";

export const GOOGLE_MESSAGES = {
  notConfigured: "Google sign-in is not configured on this server",
  invalidToken: "Google sign-in failed: the Google token is invalid or has expired",
  emailNotVerified: "Google sign-in failed: your Google e-mail address is not verified",
} as const;

/** Reset tokens: 32 random bytes, base64url (43 characters); the spec asks at least 20. */
const RESET_TOKEN_BYTES = 32;
const RESET_TOKEN_MIN_LENGTH = 20;

export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

export interface AuthServiceOptions {
  db: Database;
  users: UsersRepository;
  resetTokens: ResetTokensRepository;
  endedTokens: EndedTokensRepository;
  tokens: TokenService;
  mail: MailProvider;
  settings: SettingsService;
  /** Undefined when GOOGLE_CLIENT_ID is not set. */
  google: GoogleTokenVerifier | undefined;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export function createAuthService(options: AuthServiceOptions) {
  const { db, users, tokens } = options;
  // Mail goes out after the answer (the answer must not reveal whether an account exists by
  // its timing); the app waits for these on close.
  const pendingMail = new Set<Promise<void>>();

  /** A signed-in session: the token and the user (the routes wrap it in the envelope). */
  const session = async (user: UserRow): Promise<Session> => ({
    token: await tokens.sign(user),
    user: toUser(user, await subscriptionOf(db, user.id)),
  });

  const assertActive = (user: UserRow) => {
    if (!user.isActive) throw new HttpError(403, AUTH_MESSAGES.accountDeactivated);
  };

  /** After a successful sign-in of any kind: lastLogin, then the session. */
  const signedIn = async (user: UserRow): Promise<Session> => {
    const updated = (await users.recordLogin(user.id)) ?? user;
    return session(updated);
  };

  /**
   * Refuses a sign-up under the operator's minimum age (decision 0054) before anything is read
   * or written: no row, no credits, nothing that names the visitor.
   */
  const assertOldEnough = async (dateOfBirth: string, refusedBefore: boolean) => {
    const { minimumAge } = await options.settings.get();
    if (refusedBefore || isUnderAge(dateOfBirth, minimumAge)) {
      throw new HttpError(403, AGE_MESSAGES.underAge(minimumAge), { code: UNDER_AGE_CODE });
    }
  };

  /** Creates an account and grants the sign-up credits, in one transaction. */
  const createAccount = async (values: {
    name: string;
    email: string;
    passwordHash: string | null;
    dateOfBirth: string;
    googleId?: string;
    profileImage?: string | null;
  }): Promise<UserRow> => {
    const { defaultCredits } = await options.settings.get();
    return db.transaction(async (tx) => {
      const user = await users.insert({ ...values, lastLogin: new Date() }, tx);
      if (!user) throw new HttpError(409, AUTH_MESSAGES.emailTaken);
      if (defaultCredits <= 0) return user;
      const { balance } = await applyCreditMovement(tx, {
        userId: user.id,
        kind: "grant",
        amount: defaultCredits,
        sourceKey: `signup:${user.id}`,
        metadata: { reason: "signup" },
      });
      return { ...user, credits: balance };
    });
  };

  /** Checks e-mail and password; the same 401 whatever is wrong. */
  const checkCredentials = async (email: string, password: string): Promise<UserRow> => {
    const user = await users.findByEmail(email);
    const ok = user?.passwordHash
      ? await verifyPassword(user.passwordHash, password)
      : await verifyAgainstDummy(password);
    if (!user || !ok) throw new HttpError(401, AUTH_MESSAGES.invalidCredentials);
    return user;
  };

  /** New password for an account: every earlier token ends. Answers the updated row. */
  const setPassword = async (user: UserRow, password: string, tx?: Database) => {
    const updated = await users.update(
      user.id,
      { passwordHash: await hashPassword(password), bumpTokens: true },
      tx,
    );
    if (!updated) throw new HttpError(404, "User not found");
    return updated;
  };

  return {
    /** `refusedBefore`: this browser was refused for its age already (auth/age-refusal.ts). */
    async signup(
      input: { name: string; email: string; password: string; dateOfBirth: string },
      refusedBefore = false,
    ) {
      await assertOldEnough(input.dateOfBirth, refusedBefore);
      if (await users.findByEmail(input.email)) {
        throw new HttpError(409, AUTH_MESSAGES.emailTaken);
      }
      const user = await createAccount({
        name: input.name,
        email: input.email,
        passwordHash: await hashPassword(input.password),
        dateOfBirth: input.dateOfBirth,
      });
      return session(user);
    },

    async login(input: { email: string; password: string }) {
      const user = await checkCredentials(input.email, input.password);
      assertActive(user);
      return signedIn(user);
    },

    async adminLogin(input: { email: string; password: string }) {
      const user = await checkCredentials(input.email, input.password);
      // A user account gets the same answer as a wrong password.
      if (user.role !== "admin") throw new HttpError(401, AUTH_MESSAGES.invalidCredentials);
      assertActive(user);
      const updated = (await users.recordLogin(user.id)) ?? user;
      return { user: updated, token: await tokens.sign(updated) };
    },

    /**
     * Signs in with a Google ID token. An account new here is made only with the sign-up form's
     * date of birth, old enough; an existing account (by Google id or e-mail) signs in as before.
     */
    async google(idToken: string, dateOfBirth?: string, refusedBefore = false) {
      if (!options.google) throw new HttpError(400, GOOGLE_MESSAGES.notConfigured);
      let identity: Awaited<ReturnType<GoogleTokenVerifier["verify"]>>;
      try {
        identity = await options.google.verify(idToken);
      } catch (error) {
        options.log.info({ err: (error as Error).message }, "Google token refused");
        throw new HttpError(401, GOOGLE_MESSAGES.invalidToken);
      }
      let user = await users.findByGoogleId(identity.googleId);
      if (!user) {
        // Linking by e-mail trusts Google only for an address Google has verified.
        if (!identity.emailVerified) throw new HttpError(401, GOOGLE_MESSAGES.emailNotVerified);
        const byEmail = await users.findByEmail(identity.email);
        if (byEmail) {
          assertActive(byEmail);
          user = await users.update(byEmail.id, {
            googleId: identity.googleId,
            ...(byEmail.profileImage ? {} : { profileImage: identity.picture ?? null }),
          });
        } else {
          if (!dateOfBirth) {
            throw new HttpError(400, AGE_MESSAGES.googleNeedsDateOfBirth, {
              issues: [{ path: "dateOfBirth", message: AGE_MESSAGES.googleNeedsDateOfBirth }],
            });
          }
          await assertOldEnough(dateOfBirth, refusedBefore);
          user = await createAccount({
            name: identity.name?.trim() || identity.email.split("@")[0] || "Google user",
            email: identity.email,
            passwordHash: null,
            dateOfBirth,
            googleId: identity.googleId,
            profileImage: identity.picture ?? null,
          });
        }
      }
      if (!user) throw new HttpError(401, GOOGLE_MESSAGES.invalidToken);
      assertActive(user);
      return signedIn(user);
    },

    /** Same outcome whether or not the account exists; the link goes out by mail. */
    async forgotPassword(email: string): Promise<void> {
      const user = await users.findByEmail(email);
      if (user?.isActive) {
        const token = randomBytes(RESET_TOKEN_BYTES).toString("base64url");
        await options.resetTokens.create(user.id, sha256(token));
        const link = `${options.publicUrl}/reset-password/${token}`;
        const sending = options.mail
          .send({
            to: user.email,
            subject: "Reset your password",
            text:
              `Hello ${user.name},\n\nSomeone asked to reset the password of your account. ` +
              `Open this link within one hour to choose a new password:\n\n${link}\n\n` +
              "If it was not you, ignore this mail: your password stays as it is.\n",
            html:
              `<p>Hello ${escapeHtml(user.name)},</p><p>Someone asked to reset the password of ` +
              `your account. Open this link within one hour to choose a new password:</p>` +
              `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
              "<p>If it was not you, ignore this mail: your password stays as it is.</p>",
          })
          .catch((error: unknown) => {
            options.log.error({ err: error, to: user.email }, "Password reset mail not sent");
          });
        pendingMail.add(sending);
        void sending.finally(() => pendingMail.delete(sending));
      }
    },

    async resetPassword(token: string, password: string) {
      const trimmed = token.trim();
      if (trimmed.length < RESET_TOKEN_MIN_LENGTH) {
        throw new HttpError(400, AUTH_MESSAGES.resetTokenInvalid);
      }
      const passwordHash = await hashPassword(password);
      const user = await db.transaction(async (tx) => {
        const userId = await options.resetTokens.consume(tx, sha256(trimmed));
        if (!userId) throw new HttpError(400, AUTH_MESSAGES.resetTokenInvalid);
        const updated = await users.update(
          userId,
          { passwordHash, bumpTokens: true, lastLogin: new Date() },
          tx,
        );
        if (!updated) throw new HttpError(400, AUTH_MESSAGES.resetTokenInvalid);
        // Rolls back: the link stays usable should the account be activated again.
        assertActive(updated);
        return updated;
      });
      return session(user);
    },

    async me(user: UserRow): Promise<User> {
      return toUser(user, await subscriptionOf(db, user.id));
    },

    /**
     * PUT /api/users/date-of-birth: an account made before the age gate gives its date once.
     * It is stored even when under the minimum age (so another date cannot be tried), and then
     * the account is refused chat and calls like any other under age.
     */
    async giveDateOfBirth(user: UserRow, dateOfBirth: string): Promise<User> {
      const updated = await users.setDateOfBirthOnce(user.id, dateOfBirth);
      if (!updated) throw new HttpError(409, AGE_MESSAGES.alreadyGiven);
      const refusal = ageRefusal(dateOfBirth, (await options.settings.get()).minimumAge);
      if (refusal) throw refusal;
      return toUser(updated, await subscriptionOf(db, updated.id));
    },

    async updateProfile(user: UserRow, name: string): Promise<User> {
      const updated = await users.update(user.id, { name });
      if (!updated) throw new HttpError(404, "User not found");
      return toUser(updated, await subscriptionOf(db, updated.id));
    },

    /**
     * PUT /api/users/password and PUT /api/admin/change-password: answers a fresh token (every
     * earlier one ends, the one of this session too).
     */
    async changePassword(
      user: UserRow,
      input: { currentPassword: string; newPassword: string },
    ): Promise<string> {
      if (!user.passwordHash) throw new HttpError(400, AUTH_MESSAGES.googleOnlyAccount);
      // 400, never 401: a 401 makes the web client drop the session.
      if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
        throw new HttpError(400, AUTH_MESSAGES.wrongCurrentPassword);
      }
      const updated = await setPassword(user, input.newPassword);
      return tokens.sign(updated);
    },

    /**
     * The signed-in person again, before an act that cannot be undone (deleting the account):
     * the password of an account that has one, else a fresh Google sign-in of the linked
     * Google account. Refusals are 400, never 401 (a 401 signs the web client out).
     */
    async confirmIdentity(
      user: UserRow,
      input: { password?: string | undefined; googleToken?: string | undefined },
    ): Promise<void> {
      if (user.passwordHash) {
        if (!input.password) {
          throw new HttpError(400, PRIVACY_MESSAGES.deletePasswordRequired, { field: "password" });
        }
        if (!(await verifyPassword(user.passwordHash, input.password))) {
          throw new HttpError(400, PRIVACY_MESSAGES.deleteWrongPassword, { field: "password" });
        }
        return;
      }
      if (!input.googleToken || !options.google || !user.googleId) {
        throw new HttpError(400, PRIVACY_MESSAGES.deleteGoogleRequired, { field: "googleToken" });
      }
      let googleId: string;
      try {
        googleId = (await options.google.verify(input.googleToken)).googleId;
      } catch {
        throw new HttpError(400, PRIVACY_MESSAGES.deleteGoogleRequired, { field: "googleToken" });
      }
      if (googleId !== user.googleId) {
        throw new HttpError(400, PRIVACY_MESSAGES.deleteGoogleMismatch, { field: "googleToken" });
      }
    },

    /** Ends this one token on the server, on every instance, until its own expiry. */
    async logout(claims: TokenClaims): Promise<void> {
      await options.endedTokens.end(claims.jti, new Date(claims.exp * 1000));
    },

    /** ADMIN_EMAIL/ADMIN_PASSWORD at boot; see syncAdminAccount. */
    syncAdmin(input: { email: string; password: string; name?: string }) {
      return syncAdminAccount(users, input);
    },

    /** Waits for mail still being sent (the app is closing). */
    async drain(): Promise<void> {
      await Promise.allSettled([...pendingMail]);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

/** What a sign-in of any kind gives: the token and the user. */
export interface Session {
  token: string;
  user: User;
}

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}
