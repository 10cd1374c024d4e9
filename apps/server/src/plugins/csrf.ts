import { hkdfSync } from "node:crypto";
import fastifyCookie from "@fastify/cookie";
import fastifyCsrfProtection from "@fastify/csrf-protection";
import { CSRF_HEADER, routes, TRIAL_DEVICE_HEADER } from "@twinline/contracts";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { isApiPath } from "./errors.ts";
import { registerRoute } from "./routes.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * `false` exempts a state-changing route from the CSRF check. Only for callers that are not
     * browsers and prove themselves otherwise, such as payment webhooks verified by signature.
     */
    csrf?: boolean;
  }
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The cookie-signing secret, derived from SECRETS_KEY so nothing is hard-coded or stored twice. */
export function deriveCookieSecret(secretsKey: string): string {
  return Buffer.from(
    hkdfSync("sha256", secretsKey, "twinline", "cookie-signing-secret", 32),
  ).toString("base64url");
}

export interface CsrfPluginOptions {
  secretsKey: string;
  /** Mark cookies Secure (the site is served over https). */
  secureCookies: boolean;
}

/**
 * Double-submit CSRF protection: `GET /api/csrf-token` sets a signed, httpOnly, SameSite=Strict
 * cookie holding a secret and answers a token derived from it; every POST, PUT, PATCH and DELETE
 * under /api must echo the token in the `csrf-token` header.
 *
 * The embed frame on another site (decisions 0085, 0089) never sends that SameSite=Strict cookie,
 * so it cannot pass the double-submit check; it sends the trial's device header with every call
 * instead. A page of another site cannot send a custom header here: that takes a CORS preflight,
 * and this server grants none. So a request carrying it comes from a page of this origin and is
 * let through.
 */
export const csrfPlugin = fp<CsrfPluginOptions>(
  async (app: FastifyInstance, options) => {
    await app.register(fastifyCookie, { secret: deriveCookieSecret(options.secretsKey) });
    await app.register(fastifyCsrfProtection, {
      cookieKey: "_csrf",
      cookieOpts: {
        path: "/",
        httpOnly: true,
        sameSite: "strict",
        signed: true,
        secure: options.secureCookies,
      },
      // The header only: a token in a form body or query is what CSRF attacks can forge.
      getToken: (request) => {
        const value = request.headers[CSRF_HEADER];
        return typeof value === "string" ? value : undefined;
      },
    });

    app.addHook("onRequest", (request, reply, done) => {
      if (
        !STATE_CHANGING.has(request.method) ||
        !isApiPath(request.url) ||
        request.routeOptions.config.csrf === false ||
        request.headers[TRIAL_DEVICE_HEADER] !== undefined
      ) {
        return done();
      }
      // Sends the plugin's 403 error (mapped to "Invalid or missing CSRF token") or continues.
      app.csrfProtection(request, reply, done);
    });

    registerRoute(app, routes.security.csrfToken, async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return { csrfToken: reply.generateCsrf() };
    });
  },
  { name: "csrf" },
);
