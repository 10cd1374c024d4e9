import { AUTH_MESSAGES, routes, UNDER_AGE_CODE } from "@twinline/contracts";
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentTokenClaims, currentUser } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { registerRoute } from "../../plugins/routes.ts";
import { markRefusedForAge, wasRefusedForAge } from "./age-refusal.ts";
import type { SignInListener } from "./plugin.ts";
import type { AuthService, Session } from "./service.ts";

export const LOGOUT_MESSAGE = "Logged out";

const answer = (session: Session) => ({ success: true as const, ...session });

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

  registerRoute(app, routes.auth.config, async () => ({
    googleClientId: options.googleClientId ?? null,
  }));

  registerRoute(
    app,
    routes.auth.signup,
    async (request, reply) => {
      const session = await auth
        .signup(request.body, wasRefusedForAge(request))
        .catch(markIfUnderAge(reply));
      app.loginThrottle.trustDevice(request, reply, session.user.email);
      return reply.code(201).send(answer(await signedIn(request, session)));
    },
    { config: { rateLimit }, onRequest: noStore },
  );

  registerRoute(
    app,
    routes.auth.login,
    async (request, reply) =>
      answer(
        await signedIn(
          request,
          await app.loginThrottle.guard(request, reply, request.body.email, () =>
            auth.login(request.body),
          ),
        ),
      ),
    { onRequest: noStore },
  );

  registerRoute(
    app,
    routes.auth.google,
    async (request, reply) => {
      const { token, dateOfBirth } = request.body;
      const session = await auth
        .google(token, dateOfBirth, wasRefusedForAge(request))
        .catch(markIfUnderAge(reply));
      app.loginThrottle.trustDevice(request, reply, session.user.email);
      return answer(await signedIn(request, session));
    },
    { config: { rateLimit }, onRequest: noStore },
  );

  registerRoute(
    app,
    routes.auth.forgotPassword,
    async (request) => {
      await auth.forgotPassword(request.body.email);
      return { success: true as const, message: AUTH_MESSAGES.forgotPasswordSent };
    },
    { config: { rateLimit } },
  );

  registerRoute(
    app,
    routes.auth.resetPassword,
    async (request, reply) => {
      const session = await auth.resetPassword(request.params.token, request.body.password);
      // The reset link proves the mailbox: this device may keep signing in to the account.
      app.loginThrottle.trustDevice(request, reply, session.user.email);
      return answer(await signedIn(request, session));
    },
    { config: { rateLimit }, onRequest: noStore },
  );

  registerRoute(
    app,
    routes.auth.me,
    async (request) => ({ success: true as const, data: await auth.me(currentUser(request)) }),
    { onRequest: noStore },
  );

  registerRoute(app, routes.account.profile, async (request) => ({
    success: true as const,
    user: await auth.updateProfile(currentUser(request), request.body.name),
  }));

  registerRoute(app, routes.account.dateOfBirth, async (request) => ({
    success: true as const,
    user: await auth.giveDateOfBirth(currentUser(request), request.body.dateOfBirth),
  }));

  registerRoute(
    app,
    routes.account.password,
    async (request) => ({
      success: true as const,
      message: AUTH_MESSAGES.passwordChanged,
      token: await auth.changePassword(currentUser(request), request.body),
    }),
    { onRequest: noStore },
  );

  registerRoute(app, routes.auth.logout, async (request) => {
    await auth.logout(currentTokenClaims(request));
    return { success: true as const, message: LOGOUT_MESSAGE };
  });
};
