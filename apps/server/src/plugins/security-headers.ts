import type { IncomingMessage, ServerResponse } from "node:http";
import { API_DOCS_PATH, API_PREFIX } from "@twinline/contracts";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet, { type HelmetOptions } from "helmet";

export interface SecurityHeadersOptions {
  /**
   * The origins allowed to frame the embed page now (the operator's setting, read per request:
   * it changes without a restart). Absent: the embed page is unframeable like every page.
   */
  embedOrigins?: () => Promise<readonly string[]>;
  /** The site is served over https: ask browsers to upgrade requests and remember https. */
  https: boolean;
  /** GOOGLE_CLIENT_ID is set: pages load Google Identity Services (button and one-tap). */
  googleSignIn?: boolean;
}

/**
 * What Google Identity Services needs under a CSP, per Google's guidance ("Content Security
 * Policy" in the Sign in with Google docs): its client script, its iframes, its XHRs and its
 * stylesheet. Only added when Google sign-in is configured.
 */
export const GOOGLE_IDENTITY_SOURCES = {
  script: "https://accounts.google.com/gsi/client",
  frame: "https://accounts.google.com/gsi/",
  connect: "https://accounts.google.com/gsi/",
  style: "https://accounts.google.com/gsi/style",
} as const;

/**
 * The content security policy of a Vite React SPA: every script is a file from this origin (the
 * theme script too, so no inline script is allowed); React's style attributes need inline
 * styles; images and media may come from uploads (blob:, data:) and https hosts. Swagger UI at
 * /api/docs also loads only files from this origin, so it needs no exception.
 */
export function contentSecurityPolicy(https: boolean, googleSignIn = false) {
  const google = (source: string) => (googleSignIn ? [source] : []);
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      // 'wasm-unsafe-eval': the call page's voice detector compiles onnxruntime's WebAssembly
      // (a file of this origin); it allows WebAssembly only, not eval of JavaScript.
      scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...google(GOOGLE_IDENTITY_SOURCES.script)],
      styleSrc: ["'self'", "'unsafe-inline'", ...google(GOOGLE_IDENTITY_SOURCES.style)],
      imgSrc: ["'self'", "data:", "blob:", "https:"],
      connectSrc: ["'self'", "ws:", "wss:", ...google(GOOGLE_IDENTITY_SOURCES.connect)],
      ...(googleSignIn ? { frameSrc: [GOOGLE_IDENTITY_SOURCES.frame] } : {}),
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

export function helmetOptions(https: boolean, googleSignIn = false): HelmetOptions {
  return {
    contentSecurityPolicy: contentSecurityPolicy(https, googleSignIn),
    // HSTS over http is ignored by browsers and would only mislead.
    strictTransportSecurity: https,
  };
}

/**
 * Runs helmet once against a stand-in response and keeps the headers it sets. The policy does
 * not vary per request (no nonces: the SPA has no inline script), so computing it per request,
 * as @fastify/helmet does (it rebuilds the helmet middleware on every request), only costs
 * throughput: on GET /api/settings it halved the requests per second.
 */
export function computeSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return headers;
}

/**
 * What a JSON answer needs: it is never rendered as a page, so the strictest policy fits it, and
 * helmet's headers for documents (legacy IE, DNS prefetch, cross-domain policies...) would only
 * add bytes to the busiest answers (OWASP REST Security Cheat Sheet, "Security headers").
 */
export function apiSecurityHeaders(https: boolean, pageHeaders: Record<string, string>) {
  const headers: Record<string, string> = {
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-resource-policy": "same-origin",
  };
  const hsts = pageHeaders["strict-transport-security"];
  if (https && hsts) headers["strict-transport-security"] = hsts;
  return headers;
}

/** The page a creator's site frames (issue 27 item 5; docs/decisions/0085-embed-widget.md). */
export const EMBED_PAGE_PATH = "/embed";
/** The sign-in popup the embed page opens on this origin; it hands the session back by postMessage. */
export const EMBED_SIGN_IN_PATH = "/embed/sign-in";

/**
 * The embed page's headers: the page set, with `frame-ancestors` listing exactly the operator's
 * origins ('none' when there are none) and without X-Frame-Options, whose SAMEORIGIN would refuse
 * every other origin (browsers follow frame-ancestors when both are sent, but an old one might not).
 */
export function embedPageHeaders(
  pageHeaders: Record<string, string>,
  origins: readonly string[],
): Record<string, string> {
  const { "x-frame-options": _frameOptions, ...headers } = pageHeaders;
  const ancestors = origins.length > 0 ? origins.join(" ") : "'none'";
  const policy = headers["content-security-policy"] ?? "";
  headers["content-security-policy"] = policy.replace(
    /frame-ancestors [^;]*/,
    `frame-ancestors ${ancestors}`,
  );
  return headers;
}

/**
 * The sign-in popup's headers: the page set (unframeable), but no Cross-Origin-Opener-Policy
 * isolation. The popup is opened by the embed frame, which sits in another site's page: with
 * helmet's `same-origin` the browser would sever `window.opener`, and the popup could not hand
 * the session back to the frame. Its postMessage names this origin as the only receiver.
 */
export function embedSignInHeaders(pageHeaders: Record<string, string>): Record<string, string> {
  return { ...pageHeaders, "cross-origin-opener-policy": "unsafe-none" };
}

function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** True for JSON API answers; Swagger UI under /api/docs is a page and gets the page headers. */
function isJsonApiPath(url: string): boolean {
  return url.startsWith(API_PREFIX) && !url.startsWith(API_DOCS_PATH);
}

/** Security headers on every answer: helmet's full set for pages, a strict short set for JSON. */
export const securityHeadersPlugin = fp<SecurityHeadersOptions>(
  async (app: FastifyInstance, options) => {
    const pageHeaders = computeSecurityHeaders(
      helmetOptions(options.https, options.googleSignIn === true),
    );
    const apiHeaders = apiSecurityHeaders(options.https, pageHeaders);
    const signInHeaders = embedSignInHeaders(pageHeaders);
    const embedOrigins = options.embedOrigins;
    app.addHook("onRequest", (request, reply, done) => {
      const path = pathOf(request.url);
      if (path === EMBED_PAGE_PATH && embedOrigins) {
        embedOrigins().then(
          (origins) => {
            reply.headers(embedPageHeaders(pageHeaders, origins));
            done();
          },
          // The settings could not be read: the page stays unframeable.
          () => {
            reply.headers(pageHeaders);
            done();
          },
        );
        return;
      }
      reply.headers(
        isJsonApiPath(request.url)
          ? apiHeaders
          : path === EMBED_SIGN_IN_PATH
            ? signInHeaders
            : pageHeaders,
      );
      done();
    });
  },
  { name: "security-headers" },
);
