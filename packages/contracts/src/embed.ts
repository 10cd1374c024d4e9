import { z } from "zod";

/**
 * The twin on the creator's own site (issue 27 item 5; docs/decisions/0085-embed-widget.md):
 * the origins allowed to frame the embed page, as the operator lists them in the settings.
 */
export const EMBED_ORIGINS_LIMITS = {
  /** Origins in the list: enough for a site, its www twin and a few staging hosts. */
  maxOrigins: 20,
  /** Characters of one origin (a host name is at most 253, plus the scheme and a port). */
  maxLength: 270,
} as const;

export const EMBED_ORIGIN_MESSAGES = {
  tooMany: `Embed origins: at most ${EMBED_ORIGINS_LIMITS.maxOrigins} origins`,
  tooLong: `Embed origins: an origin has at most ${EMBED_ORIGINS_LIMITS.maxLength} characters`,
  invalid:
    "Embed origins: each must be an origin such as https://example.com (https, or http only for localhost), without a path",
} as const;

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const LABEL = "[a-z0-9](?:[a-z0-9-]*[a-z0-9])?";
const ORIGIN = new RegExp(
  `^(https?)://(${LABEL}(?:\\.${LABEL})*|\\[::1\\])(?::([1-9][0-9]{0,4}))?$`,
);

/**
 * Whether `value` is exactly an origin the embed page may be framed by: https, or http for a
 * local host; scheme, host and port only (no path, query, user or wildcard), written as the
 * browser serializes it (lower case, no default port), so the CSP lists what the browser compares.
 */
export function isEmbedOrigin(value: string): boolean {
  const match = ORIGIN.exec(value);
  if (!match) return false;
  const [, scheme, host = "", port] = match;
  if (port !== undefined) {
    const number = Number(port);
    if (number > 65535) return false;
    if ((scheme === "https" && number === 443) || (scheme === "http" && number === 80))
      return false;
  }
  return scheme === "https" || LOCAL_HOSTS.has(host);
}

export const embedOriginsSchema = z
  .array(
    z
      .string()
      .trim()
      .max(EMBED_ORIGINS_LIMITS.maxLength, { error: EMBED_ORIGIN_MESSAGES.tooLong })
      .refine(isEmbedOrigin, { error: EMBED_ORIGIN_MESSAGES.invalid }),
  )
  .max(EMBED_ORIGINS_LIMITS.maxOrigins, { error: EMBED_ORIGIN_MESSAGES.tooMany });

/** The embed page's message types between the sign-in popup and the frame (same origin only). */
export const EMBED_SESSION_MESSAGE = "twinline:embed-session" as const;
/** Popup → frame: the popup is ready for the frame's trial device (decision 0089). */
export const EMBED_TRIAL_READY_MESSAGE = "twinline:embed-trial-ready" as const;
/** Frame → popup: the frame's signed trial device, for the hand-over at sign-up (decision 0089). */
export const EMBED_TRIAL_DEVICE_MESSAGE = "twinline:embed-trial-device" as const;
