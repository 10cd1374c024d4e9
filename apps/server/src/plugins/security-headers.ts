import fastifyHelmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

export interface SecurityHeadersOptions {
  /** The site is served over https: ask browsers to upgrade requests and remember https. */
  https: boolean;
}

/**
 * The content security policy of a Vite React SPA: every script is a file from this origin (the
 * theme script too, so no inline script is allowed); React's style attributes need inline
 * styles; images and media may come from uploads (blob:, data:) and https hosts.
 */
export function contentSecurityPolicy(https: boolean) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:", "https:"],
      connectSrc: ["'self'", "ws:", "wss:"],
      mediaSrc: ["'self'", "blob:", "data:"],
      fontSrc: ["'self'", "data:"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      formAction: ["'self'"],
      baseUri: ["'self'"],
      // Over plain http (local use) an upgrade would break every request.
      ...(https ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

export const securityHeadersPlugin = fp<SecurityHeadersOptions>(
  async (app: FastifyInstance, options) => {
    await app.register(fastifyHelmet, {
      global: true,
      contentSecurityPolicy: contentSecurityPolicy(options.https),
      // HSTS over http is ignored by browsers and would only mislead.
      strictTransportSecurity: options.https,
    });
  },
  { name: "security-headers" },
);
