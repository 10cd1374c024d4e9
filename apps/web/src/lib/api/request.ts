import { REQUEST_TIMEOUT_MS, UPLOAD_TIMEOUT_MS } from "../constants";
import { withCsrfRetry } from "./csrf";
import { authHeaders, type BearerKind } from "./rules";
import { type SendOptions, send } from "./send";

/** apiRequest and its `api.*` shorthands: JSON (or FormData) calls over fetch. */

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions extends SendOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** A JSON-serialisable value, or FormData for uploads (60 s timeout). */
  body?: unknown;
  /** Query parameters; null and undefined are left out. */
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** Overrides the timeout (default 15 s, 60 s for FormData bodies). */
  timeoutMs?: number;
  /**
   * Which stored token to send as Bearer, overriding the URL rule. Admin screens pass "admin" for
   * their calls on URLs without /admin (/api/settings, /api/ai-training/*): decision 0008.
   */
  token?: BearerKind;
}

function withQuery(url: string, query: RequestOptions["query"]): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== null && value !== undefined) params.append(key, String(value));
  }
  const search = params.toString();
  if (!search) return url;
  return `${url}${url.includes("?") ? "&" : "?"}${search}`;
}

/** The fetch init for a call: JSON or FormData body, Accept, csrf-token and Bearer headers. */
export function buildInit(url: string, options: RequestOptions, csrf: string | null): RequestInit {
  const headers = new Headers(options.headers);
  headers.set("Accept", "application/json");
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body; // the browser sets the multipart boundary
  } else if (options.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.body);
  }
  for (const [name, value] of authHeaders(url, options.token, csrf)) {
    // A caller's own Authorization header wins over the stored token.
    if (name !== "Authorization" || !headers.has(name)) headers.set(name, value);
  }
  return { method: options.method ?? "GET", headers, body };
}

/**
 * Calls the API and resolves to the parsed answer.
 * @throws ApiError (HTTP error, with status, server message and raw body), NetworkError, TimeoutError
 */
export async function apiRequest<T = unknown>(
  url: string,
  options: RequestOptions = {},
): Promise<T> {
  const fullUrl = withQuery(url, options.query);
  const timeoutMs =
    options.timeoutMs ??
    (options.body instanceof FormData ? UPLOAD_TIMEOUT_MS : REQUEST_TIMEOUT_MS);
  return (await withCsrfRetry((csrf) =>
    send(fullUrl, buildInit(fullUrl, options, csrf), options, timeoutMs),
  )) as T;
}

type BodylessOptions = Omit<RequestOptions, "method" | "body">;

/** Shorthands over apiRequest. */
export const api = {
  get: <T = unknown>(url: string, options?: BodylessOptions) =>
    apiRequest<T>(url, { ...options, method: "GET" }),
  post: <T = unknown>(url: string, body?: unknown, options?: BodylessOptions) =>
    apiRequest<T>(url, { ...options, method: "POST", body }),
  put: <T = unknown>(url: string, body?: unknown, options?: BodylessOptions) =>
    apiRequest<T>(url, { ...options, method: "PUT", body }),
  patch: <T = unknown>(url: string, body?: unknown, options?: BodylessOptions) =>
    apiRequest<T>(url, { ...options, method: "PATCH", body }),
  delete: <T = unknown>(url: string, options?: BodylessOptions & { body?: unknown }) =>
    apiRequest<T>(url, { ...options, method: "DELETE" }),
  /** Multipart upload (60 s timeout). */
  upload: <T = unknown>(
    url: string,
    formData: FormData,
    options?: BodylessOptions & { method?: "POST" | "PUT" },
  ) => apiRequest<T>(url, { ...options, method: options?.method ?? "POST", body: formData }),
};
