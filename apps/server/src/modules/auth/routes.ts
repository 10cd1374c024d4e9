import {
  AUTH_MESSAGES,
  authConfigResponseSchema,
  authResponseSchema,
  changePasswordRequestSchema,
  dateOfBirthRequestSchema,
  forgotPasswordRequestSchema,
  googleLoginRequestSchema,
  loginRequestSchema,
  meResponseSchema,
  messageResponseSchema,
  passwordChangedResponseSchema,
  profileResponseSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
  UNDER_AGE_CODE,
  updateProfileRequestSchema,
} from "@twinline/contracts";
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentTokenClaims, currentUser } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { bearerSecurity, errorResponses } from "../../plugins/openapi.ts";
import { markRefusedForAge, wasRefusedForAge } from "./age-refusal.ts";
import type { SignInListener } from "./plugin.ts";
import type { AuthService, Session } from "./service.ts";

export const LOGOUT_MESSAGE = "Logged out";

const answer = (session: Session) => ({ success: true as const, ...session });

const errors = errorResponses(400, 401, 403, 409, 429);

/** A token answer must never be kept by a browser or a proxy cache. */
export const noStore: onRequestHookHandler = (_request, reply, done) => {
  reply.header("cache-control", "no-store");
  done();
};

export interface AuthRoutesOptions {
  auth: AuthService;
  googleClientId: string | undefined;
  /** Whether cookies are sent over HTTPS only (PUBLIC_URL is https). */
  secureCookies: boolean;
  /** Steps after every sign-up and sign-in (app.onSignIn). */
  signInListeners?: readonly SignInListener[];
}

/** The user-side account calls (user-side spec, section 7). */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { auth } = options;
  const rateLimit = app.authRateLimit;
  const tags = ["auth"];

  /** The session's user signed in from this request: the listeners' steps run. */
  const signedIn = async (request: FastifyRequest, session: Session) => {
    for (const listener of options.signInListeners ?? []) {
      await listener(request, session.user.id).catch((error: unknown) =>
        request.log.error({ err: error }, "A sign-in step failed"),
      );
    }
    return session;
  };

  /** A sign-up refused for age marks the browser (age-refusal.ts), then the error goes on. */
  const markIfUnderAge = (reply: FastifyReply) => (error: unknown) => {
    const details = error instanceof HttpError ? (error.details as { code?: string }) : undefined;
    if (details?.code === UNDER_AGE_CODE) markRefusedForAge(reply, options.secureCookies);
    throw error;
  };

  app.get(
    "/api/auth/config",
    {
      schema: {
        tags,
        summary: "Public sign-in configuration (the Google client id, or null)",
        response: { 200: authConfigResponseSchema },
      },
    },
    async () => ({ googleClientId: options.googleClientId ?? null }),
  );

  app.post(
    "/api/auth/signup",
    {
      config: { rateLimit },
      onRequest: noStore,
      schema: {
        tags,
        summary:
          "Creates an account (granting the default credits) and signs it in; refused (403, " +
          "nothing stored) under the minimum age",
        body: signupRequestSchema,
        response: { 201: authResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await auth
        .signup(request.body, wasRefusedForAge(request))
        .catch(markIfUnderAge(reply));
      app.loginThrottle.trustDevice(request, reply, session.user.email);
      return reply.code(201).send(answer(await signedIn(request, session)));
    },
  );

  app.post(
    "/api/auth/login",
    {
      onRequest: noStore,
      schema: {
        tags,
        summary: "Signs in with e-mail and password",
        body: loginRequestSchema,
        response: { 200: authResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      answer(
        await signedIn(
          request,
          await app.loginThrottle.guard(request, reply, request.body.email, () =>
            auth.login(request.body),
          ),
        ),
      ),
  );

  app.post(
    "/api/auth/google",
    {
      config: { rateLimit },
      onRequest: noStore,
      schema: {
        tags,
        summary:
          "Signs in with a Google ID token, creating (with the date of birth, old enough) or " +
          "linking the account",
        body: googleLoginRequestSchema,
        response: { 200: authResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { token, dateOfBirth } = request.body;
      const session = await auth
        .google(token, dateOfBirth, wasRefusedForAge(request))
        .catch(markIfUnderAge(reply));
      app.loginThrottle.trustDevice(request, reply, session.user.email);
      return answer(await signedIn(request, session));
    },
  );

  app.post(
    "/api/auth/forgotpassword",
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: "Mails a password reset link (same answer whether or not the account exists)",
        body: forgotPasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      await auth.forgotPassword(request.body.email);
      return { success: true as const, message: AUTH_MESSAGES.forgotPasswordSent };
    },
  );

  app.put(
    "/api/auth/resetpassword/:token",
    {
      config: { rateLimit },
      onRequest: noStore,
      schema: {
        tags,
        summary: "Sets a new password with a reset link's token, and signs in",
        params: z.object({ token: z.string() }),
        body: resetPasswordRequestSchema,
        response: { 200: authResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = await auth.resetPassword(request.params.token, request.body.password);
      // The reset link proves the mailbox: this device may keep signing in to the account.
      app.loginThrottle.trustDevice(request, reply, session.user.email);
      return answer(await signedIn(request, session));
    },
  );

  app.get(
    "/api/auth/me",
    {
      onRequest: [noStore, app.requireUser],
      schema: {
        tags,
        summary: "The signed-in user",
        security: bearerSecurity,
        response: { 200: meResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await auth.me(currentUser(request)) }),
  );

  app.put(
    "/api/users/profile",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["users"],
        summary: "Changes the signed-in user's name",
        security: bearerSecurity,
        body: updateProfileRequestSchema,
        response: { 200: profileResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      user: await auth.updateProfile(currentUser(request), request.body.name),
    }),
  );

  app.put(
    "/api/users/date-of-birth",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["users"],
        summary:
          "Gives the date of birth of an account made before sign-up asked (409 once one is " +
          "stored: only the admin corrects it)",
        security: bearerSecurity,
        body: dateOfBirthRequestSchema,
        response: { 200: profileResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      user: await auth.giveDateOfBirth(currentUser(request), request.body.dateOfBirth),
    }),
  );

  app.put(
    "/api/users/password",
    {
      onRequest: [noStore, app.requireUser],
      schema: {
        tags: ["users"],
        summary: "Changes the password; earlier tokens end and a fresh one is answered",
        security: bearerSecurity,
        body: changePasswordRequestSchema,
        response: { 200: passwordChangedResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: AUTH_MESSAGES.passwordChanged,
      token: await auth.changePassword(currentUser(request), request.body),
    }),
  );

  app.post(
    "/api/auth/logout",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Ends this session's token on the server (every instance), until its expiry",
        security: bearerSecurity,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      await auth.logout(currentTokenClaims(request));
      return { success: true as const, message: LOGOUT_MESSAGE };
    },
  );
};
