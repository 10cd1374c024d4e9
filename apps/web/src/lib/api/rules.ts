import { CSRF_HEADER } from "@twinline/contracts";
import { clearAuthStorage, getAdminToken, getUserToken } from "../storage";
import { ApiError, messageOf } from "./errors";
import { resolveUrl } from "./url";

/**
 * The rules every transport (fetch, XMLHttpRequest, server-sent events) follows, written once:
 * which Bearer token goes with a call, the headers it carries, cookies on the API host, how an
 * answer's text is parsed, and what a failed answer becomes (a 401 clears the stored tokens).
 */

/**
 * Which stored token a call sends as Bearer. Every call names it: a route's comes from its
 * definition's access (`tokenFor`, decision 0086), never from its URL.
 */
export type BearerKind = "admin" | "user";

function bearerFor(kind: BearerKind): string | null {
  return kind === "admin" ? getAdminToken() : getUserToken();
}

/**
 * What a page adds to every call and reads from every answer: the embed frame and its sign-in
 * popup carry the trial's device this way (lib/trial-device.ts, decision 0089). A hook, not an
 * import, so that the landing page's first load carries none of it (decision 0033).
 */
export interface CallExtension {
  header(): [name: string, value: string];
  answered(headers: Headers): void;
}

let extension: CallExtension | null = null;

/** Every call from now on goes through `next` (null: none). */
export function extendCalls(next: CallExtension | null): void {
  extension = next;
}

/**
 * The headers a call carries besides its own, in order: the csrf-token (when there is one),
 * `Authorization: Bearer …` (when a token is stored) and the page's extension's (when it has one).
 */
export function authHeaders(
  kind: BearerKind,
  csrf: string | null,
): [name: string, value: string][] {
  const headers: [string, string][] = [];
  if (csrf) headers.push([CSRF_HEADER, csrf]);
  const bearer = bearerFor(kind);
  if (bearer) headers.push(["Authorization", `Bearer ${bearer}`]);
  if (extension) headers.push(extension.header());
  return headers;
}

/** fetch on the API host (base URL), always sending cookies; the page's extension reads the answer. */
export async function apiFetch(
  url: string,
  init: RequestInit,
  signal: AbortSignal,
): Promise<Response> {
  const response = await fetch(resolveUrl(url), { ...init, credentials: "include", signal });
  extension?.answered(response.headers);
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
