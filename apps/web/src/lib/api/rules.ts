import { CSRF_HEADER } from "@twinline/contracts";
import { clearAuthStorage, getAdminToken, getUserToken } from "../storage";
import { noteTrialDevice, trialDeviceHeader } from "../trial-device";
import { ApiError, messageOf } from "./errors";
import { resolveUrl } from "./url";

/**
 * The rules every transport (fetch, XMLHttpRequest, server-sent events) follows, written once:
 * which Bearer token goes with a call, the headers it carries, cookies on the API host, how an
 * answer's text is parsed, and what a failed answer becomes (a 401 clears the stored tokens).
 */

export type BearerKind = "admin" | "user";

/** Whether a URL is called with the admin token (user-side spec, section 6). */
export function usesAdminToken(url: string): boolean {
  return url.includes("/admin") || url.includes("/api-keys");
}

/** The Bearer token for a call: the `token` option when given, else the URL rule. */
function bearerFor(url: string, kind: BearerKind | undefined): string | null {
  const admin = kind ? kind === "admin" : usesAdminToken(url);
  return admin ? getAdminToken() : getUserToken();
}

/**
 * The headers a call carries besides its own, in order: the csrf-token (when there is one),
 * `Authorization: Bearer …` (when a token is stored) and, in the embed frame and its sign-in popup,
 * the trial's device (lib/trial-device.ts; decision 0089).
 */
export function authHeaders(
  url: string,
  kind: BearerKind | undefined,
  csrf: string | null,
): [name: string, value: string][] {
  const headers: [string, string][] = [];
  if (csrf) headers.push([CSRF_HEADER, csrf]);
  const bearer = bearerFor(url, kind);
  if (bearer) headers.push(["Authorization", `Bearer ${bearer}`]);
  const device = trialDeviceHeader();
  if (device) headers.push(device);
  return headers;
}

/** fetch on the API host (base URL), always sending cookies; keeps a trial device it is given. */
export async function apiFetch(
  url: string,
  init: RequestInit,
  signal: AbortSignal,
): Promise<Response> {
  const response = await fetch(resolveUrl(url), { ...init, credentials: "include", signal });
  noteTrialDevice(response.headers);
  return response;
}

/** An answer's text, JSON-parsed when its content type says JSON (and it parses); "" gives undefined. */
export function parseText(text: string, contentType: string): unknown {
  if (!text) return undefined;
  if (contentType.includes("json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// 401

export const UNAUTHORIZED_EVENT = "twinline:unauthorized";

/** Runs `listener` after every 401 answer (storage is already cleared). Returns an unsubscribe. */
export function onUnauthorized(listener: () => void): () => void {
  const handler = () => listener();
  window.addEventListener(UNAUTHORIZED_EVENT, handler);
  return () => window.removeEventListener(UNAUTHORIZED_EVENT, handler);
}

/** Ends the stored session as a 401 answer does (for a 401 seen outside fetch: a socket). */
export function handleUnauthorized(): void {
  clearAuthStorage();
  window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
}

/** The ApiError for a failed answer; a 401 first clears the stored tokens and notifies subscribers. */
export function httpFailure(status: number, body: unknown): ApiError {
  if (status === 401) handleUnauthorized();
  return new ApiError(messageOf(body, status), { status, body });
}
