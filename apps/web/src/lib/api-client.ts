import { CSRF_HEADER } from "@twinline/contracts";
import { REQUEST_TIMEOUT_MS, UPLOAD_TIMEOUT_MS } from "./constants";
import { clearAuthStorage, getAdminToken, getUserToken } from "./storage";

/**
 * The one API client (DESIGN.md, "Front end"; user-side spec sections 6 and 7).
 *
 * - base URL: VITE_API_URL, else the page's own origin;
 * - cookies are always sent (credentials: "include");
 * - 15 s timeout, 60 s for uploads (FormData bodies);
 * - every request carries the `csrf-token` header, fetched once from GET /api/csrf-token and
 *   cached; a 403 whose message mentions "CSRF token" refreshes it and retries once;
 * - Bearer token by URL: /admin and /api-keys URLs use adminToken, all others userToken; the
 *   `token` option overrides the URL rule (admin calls on URLs without /admin, decision 0008);
 * - any 401 clears userToken, userData, adminToken and adminData and notifies subscribers;
 * - failures are thrown as ApiError (HTTP), NetworkError or TimeoutError.
 */

export const CSRF_TOKEN_PATH = "/api/csrf-token";

// ---------------------------------------------------------------------------------------------
// Errors

export type ApiErrorKind = "http" | "network" | "timeout";

/** A failed call. `status` is the HTTP status (0 when no answer came), `body` the raw answer. */
export class ApiError extends Error {
  override readonly name: string = "ApiError";
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly body: unknown;

  constructor(
    message: string,
    options: { status: number; body?: unknown; kind?: ApiErrorKind; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.body = options.body;
    this.kind = options.kind ?? "http";
  }
}

/** The request never got an answer (offline, DNS, refused connection, CORS). */
export class NetworkError extends ApiError {
  override readonly name = "NetworkError";
  constructor(cause?: unknown) {
    super("Network error. Please check your connection and try again", {
      status: 0,
      kind: "network",
      cause,
    });
  }
}

/** No answer within the time limit (15 s, 60 s for uploads). */
export class TimeoutError extends ApiError {
  override readonly name = "TimeoutError";
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`The request timed out after ${Math.round(timeoutMs / 1000)} seconds`, {
      status: 0,
      kind: "timeout",
    });
    this.timeoutMs = timeoutMs;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server's message for an error, or `fallback` when there is none (spec: "the server message, else ..."). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.kind === "http") {
    // Only a message the server wrote counts; "Request failed with status 500" does not.
    return serverMessageOf(error.body) ?? fallback;
  }
  if (error instanceof ApiError) return error.message || fallback;
  return fallback;
}

// ---------------------------------------------------------------------------------------------
// URLs

/** The API host without a trailing slash; "" means the page's own origin. */
export function getApiBaseUrl(): string {
  const configured = import.meta.env.VITE_API_URL;
  return typeof configured === "string" ? configured.trim().replace(/\/+$/, "") : "";
}

function isAbsolute(url: string): boolean {
  return /^[a-z][a-z\d+.-]*:/i.test(url) || url.startsWith("//");
}

function resolveUrl(path: string): string {
  if (isAbsolute(path)) return path;
  return `${getApiBaseUrl()}${path.startsWith("/") ? path : `/${path}`}`;
}

/**
 * A media path from the API (e.g. "/uploads/x.png") as a URL the browser can load: relative
 * paths get the API host, absolute, data: and blob: URLs stay as they are, empty gives "".
 */
export function mediaUrl(path: string | null | undefined): string {
  const value = path?.trim();
  if (!value) return "";
  return resolveUrl(value);
}

/** Whether a URL is called with the admin token (user-side spec, section 6). */
export function usesAdminToken(url: string): boolean {
  return url.includes("/admin") || url.includes("/api-keys");
}

// ---------------------------------------------------------------------------------------------
// 401 subscribers

export const UNAUTHORIZED_EVENT = "twinline:unauthorized";

/** Runs `listener` after every 401 answer (storage is already cleared). Returns an unsubscribe. */
export function onUnauthorized(listener: () => void): () => void {
  const handler = () => listener();
  window.addEventListener(UNAUTHORIZED_EVENT, handler);
  return () => window.removeEventListener(UNAUTHORIZED_EVENT, handler);
}

function handleUnauthorized(): void {
  clearAuthStorage();
  window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
}

// ---------------------------------------------------------------------------------------------
// CSRF token

let csrfToken: string | null = null;
let csrfRequest: Promise<string | null> | null = null;

/**
 * The cached CSRF token, fetched on first use (concurrent callers share one request).
 * `refresh` forces a new fetch. Resolves to null when the token cannot be had: the request
 * then goes without it and the server decides.
 */
export function getCsrfToken(refresh = false): Promise<string | null> {
  if (refresh) {
    csrfToken = null;
    csrfRequest = null;
  }
  if (csrfToken) return Promise.resolve(csrfToken);
  if (!csrfRequest) {
    const pending = fetchCsrfToken().then((token) => {
      if (csrfRequest === pending) {
        csrfToken = token;
        csrfRequest = null;
      }
      return token;
    });
    csrfRequest = pending;
  }
  return csrfRequest;
}

async function fetchCsrfToken(): Promise<string | null> {
  try {
    const body = await send(CSRF_TOKEN_PATH, { method: "GET" }, null, REQUEST_TIMEOUT_MS);
    const token = (body as { csrfToken?: unknown } | undefined)?.csrfToken;
    return typeof token === "string" && token ? token : null;
  } catch {
    return null;
  }
}

/** Forgets the cached CSRF token (tests; logout). */
export function resetCsrfToken(): void {
  csrfToken = null;
  csrfRequest = null;
}

function isCsrfError(error: ApiError): boolean {
  return error.status === 403 && /csrf token/i.test(error.message);
}

// ---------------------------------------------------------------------------------------------
// Requests

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** A JSON-serialisable value, or FormData for uploads (60 s timeout). */
  body?: unknown;
  /** Query parameters; null and undefined are left out. */
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Overrides the timeout (default 15 s, 60 s for FormData bodies). */
  timeoutMs?: number;
  /** How to read a successful answer (default: JSON when the server says so, else text). */
  responseType?: "json" | "blob" | "text";
  /**
   * Which stored token to send as Bearer, overriding the URL rule. Admin screens pass "admin" for
   * their calls on URLs without /admin (/api/settings, /api/ai-training/*): decision 0008.
   */
  token?: BearerKind;
}

export type BearerKind = "admin" | "user";

/** The Bearer token for a call: the `token` option when given, else the URL rule. */
function bearerFor(url: string, kind: BearerKind | undefined): string | null {
  const admin = kind ? kind === "admin" : usesAdminToken(url);
  return admin ? getAdminToken() : getUserToken();
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

async function readBody(response: Response, responseType?: RequestOptions["responseType"]) {
  if (responseType === "blob" && response.ok) return response.blob();
  const text = await response.text();
  if (responseType === "text" && response.ok) return text;
  const type = responseType === "json" ? "json" : (response.headers.get("content-type") ?? "");
  return parseText(text, type);
}

function parseText(text: string, contentType: string): unknown {
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

function serverMessageOf(body: unknown): string | null {
  if (body && typeof body === "object") {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (typeof message === "string" && message) return message;
    if (typeof error === "string" && error) return error;
  }
  return null;
}

function messageOf(body: unknown, status: number): string {
  return serverMessageOf(body) ?? `Request failed with status ${status}`;
}

/** One fetch with timeout; resolves to the parsed body or throws an ApiError. */
async function send(
  url: string,
  init: RequestInit,
  options: Pick<RequestOptions, "signal" | "responseType"> | null,
  timeoutMs: number,
): Promise<unknown> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const callerSignal = options?.signal;
  const forwardAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) forwardAbort();
  else callerSignal?.addEventListener("abort", forwardAbort, { once: true });

  try {
    let response: Response;
    try {
      response = await fetch(resolveUrl(url), {
        ...init,
        credentials: "include",
        signal: controller.signal,
      });
    } catch (cause) {
      if (timedOut) throw new TimeoutError(timeoutMs);
      // A caller's abort (e.g. TanStack Query cancelling) is passed on untouched.
      if (callerSignal?.aborted) throw callerSignal.reason ?? cause;
      throw new NetworkError(cause);
    }

    let body: unknown;
    try {
      body = await readBody(response, response.ok ? options?.responseType : undefined);
    } catch (cause) {
      if (timedOut) throw new TimeoutError(timeoutMs);
      if (callerSignal?.aborted) throw callerSignal.reason ?? cause;
      throw new NetworkError(cause);
    }

    if (!response.ok) {
      if (response.status === 401) handleUnauthorized();
      throw new ApiError(messageOf(body, response.status), { status: response.status, body });
    }
    if (options?.responseType === "json" && typeof body === "string") {
      throw new ApiError("The server sent an unexpected answer", {
        status: response.status,
        body,
      });
    }
    return body;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", forwardAbort);
  }
}

function buildInit(url: string, options: RequestOptions, token: string | null): RequestInit {
  const headers = new Headers(options.headers);
  headers.set("Accept", "application/json");
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body; // the browser sets the multipart boundary
  } else if (options.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.body);
  }
  if (token) headers.set(CSRF_HEADER, token);
  const bearer = bearerFor(url, options.token);
  if (bearer && !headers.has("Authorization")) headers.set("Authorization", `Bearer ${bearer}`);
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
  const attempt = async (refreshCsrf: boolean) => {
    const token = await getCsrfToken(refreshCsrf);
    return send(fullUrl, buildInit(fullUrl, options, token), options, timeoutMs);
  };
  try {
    return (await attempt(false)) as T;
  } catch (error) {
    if (error instanceof ApiError && isCsrfError(error)) {
      return (await attempt(true)) as T;
    }
    throw error;
  }
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

// ---------------------------------------------------------------------------------------------
// Uploads with progress

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0 to 100, whole numbers. */
  percent: number;
}

export interface UploadWithProgressOptions {
  onProgress?: (progress: UploadProgress) => void;
  token?: BearerKind;
  signal?: AbortSignal;
  method?: "POST" | "PUT";
  /** Default 60 s (uploads). */
  timeoutMs?: number;
}

/**
 * A multipart upload that reports its progress. fetch cannot report upload progress, so this one
 * call goes through XMLHttpRequest, with every rule of apiRequest: base URL, cookies, 60 s
 * timeout, the csrf-token header with one refresh-and-retry, the Bearer token (by URL or
 * `token`), 401 clearing the stored tokens, and ApiError, NetworkError or TimeoutError on failure.
 */
export async function uploadWithProgress<T = unknown>(
  url: string,
  formData: FormData,
  options: UploadWithProgressOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? UPLOAD_TIMEOUT_MS;
  const attempt = async (refreshCsrf: boolean) => {
    const csrf = await getCsrfToken(refreshCsrf);
    return sendXhr(url, formData, options, csrf, timeoutMs);
  };
  try {
    return (await attempt(false)) as T;
  } catch (error) {
    if (error instanceof ApiError && isCsrfError(error)) {
      options.onProgress?.({ loaded: 0, total: 0, percent: 0 });
      return (await attempt(true)) as T;
    }
    throw error;
  }
}

function sendXhr(
  url: string,
  formData: FormData,
  options: UploadWithProgressOptions,
  csrf: string | null,
  timeoutMs: number,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const { signal, onProgress } = options;
    if (signal?.aborted) {
      reject(signal.reason ?? new DOMException("The upload was aborted", "AbortError"));
      return;
    }
    const xhr = new XMLHttpRequest();
    let settled = false;
    let timedOut = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      outcome();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      xhr.abort();
      finish(() => reject(new TimeoutError(timeoutMs)));
    }, timeoutMs);
    const onAbort = () => {
      xhr.abort();
      finish(() =>
        reject(signal?.reason ?? new DOMException("The upload was aborted", "AbortError")),
      );
    };
    signal?.addEventListener("abort", onAbort, { once: true });

    xhr.open(options.method ?? "POST", resolveUrl(url));
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    if (csrf) xhr.setRequestHeader(CSRF_HEADER, csrf);
    const bearer = bearerFor(url, options.token);
    if (bearer) xhr.setRequestHeader("Authorization", `Bearer ${bearer}`);

    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable || !onProgress) return;
      const percent = event.total > 0 ? Math.round((event.loaded / event.total) * 100) : 0;
      onProgress({ loaded: event.loaded, total: event.total, percent: Math.min(100, percent) });
    };
    xhr.onload = () =>
      finish(() => {
        const body = parseText(xhr.responseText, xhr.getResponseHeader("content-type") ?? "");
        if (xhr.status >= 200 && xhr.status < 300) {
          resolve(body);
          return;
        }
        if (xhr.status === 401) handleUnauthorized();
        reject(new ApiError(messageOf(body, xhr.status), { status: xhr.status, body }));
      });
    xhr.onerror = () => finish(() => reject(new NetworkError()));
    xhr.onabort = () => {
      if (!timedOut) {
        finish(() => reject(new DOMException("The upload was aborted", "AbortError")));
      }
    };
    xhr.send(formData);
  });
}

// ---------------------------------------------------------------------------------------------
// Server-sent events over fetch

/** One server-sent event: its `event` name ("message" when none) and its data, JSON-parsed when it is JSON. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

export interface ApiStreamOptions {
  method?: "POST" | "PUT" | "PATCH" | "GET";
  /** A JSON-serialisable value. */
  body?: unknown;
  signal?: AbortSignal;
  /** Called for each event, in order, as it arrives. */
  onEvent: (event: StreamEvent) => void;
  token?: BearerKind;
  /** Time allowed for the answer to begin (default 15 s). */
  timeoutMs?: number;
  /** Time allowed between two pieces of the stream once it began (default 60 s). */
  idleTimeoutMs?: number;
}

/** How a streamed call ended: the stream ran to its end, or the server answered plain JSON. */
export type ApiStreamResult = { streamed: true } | { streamed: false; body: unknown };

export const STREAM_IDLE_TIMEOUT_MS = 60_000;

/**
 * Splits a text/event-stream into events (the WHATWG rules: `event:` and `data:` fields, data
 * lines joined by "\n", a blank line ends an event, lines starting with ":" are comments).
 * `push` takes decoded text in any pieces; `end` flushes an event the stream left unterminated.
 */
export function createSseParser(onEvent: (event: StreamEvent) => void) {
  let buffer = "";
  let eventName = "";
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0) {
      const text = data.join("\n");
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the text itself
      }
      onEvent({ event: eventName || "message", data: parsed });
    }
    eventName = "";
    data = [];
  };
  const line = (raw: string) => {
    if (raw === "") return dispatch();
    if (raw.startsWith(":")) return;
    const colon = raw.indexOf(":");
    const field = colon === -1 ? raw : raw.slice(0, colon);
    let value = colon === -1 ? "" : raw.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") eventName = value;
    else if (field === "data") data.push(value);
  };
  return {
    push(text: string) {
      buffer += text;
      let index = buffer.search(/\r\n|\r|\n/);
      while (index !== -1) {
        // A lone "\r" at the very end may be the first half of "\r\n": wait for more.
        if (buffer[index] === "\r" && index === buffer.length - 1) break;
        const length = buffer.startsWith("\r\n", index) ? 2 : 1;
        line(buffer.slice(0, index));
        buffer = buffer.slice(index + length);
        index = buffer.search(/\r\n|\r|\n/);
      }
    },
    end() {
      if (buffer) line(buffer);
      buffer = "";
      dispatch();
    },
  };
}

/**
 * A call answered with server-sent events (e.g. POST /api/chat/message with
 * `Accept: text/event-stream`), with every rule of apiRequest: base URL, cookies, the csrf-token
 * header with one refresh-and-retry, the Bearer token (by URL or `token`), 401 clearing the stored
 * tokens. Events reach `onEvent` as they arrive. A refusal (4xx/5xx before the stream) throws an
 * ApiError with the server's body; a broken connection a NetworkError; silence a TimeoutError;
 * the caller's abort is passed on untouched (and cancels the request, so the server can stop).
 * A server that answers JSON instead of a stream resolves to `{ streamed: false, body }`.
 */
export async function apiStream(url: string, options: ApiStreamOptions): Promise<ApiStreamResult> {
  const attempt = async (refreshCsrf: boolean) => {
    const csrf = await getCsrfToken(refreshCsrf);
    const init = buildInit(
      url,
      { method: options.method ?? "POST", body: options.body, token: options.token },
      csrf,
    );
    (init.headers as Headers).set("Accept", "text/event-stream");
    return sendStream(url, init, options);
  };
  try {
    return await attempt(false);
  } catch (error) {
    if (error instanceof ApiError && isCsrfError(error)) return attempt(true);
    throw error;
  }
}

async function sendStream(
  url: string,
  init: RequestInit,
  options: ApiStreamOptions,
): Promise<ApiStreamResult> {
  const controller = new AbortController();
  const callerSignal = options.signal;
  let timedOutAfter = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOutAfter = ms;
      controller.abort();
    }, ms);
  };
  const forwardAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) forwardAbort();
  else callerSignal?.addEventListener("abort", forwardAbort, { once: true });
  const failure = (cause: unknown) => {
    if (callerSignal?.aborted) return callerSignal.reason ?? cause;
    if (timedOutAfter) return new TimeoutError(timedOutAfter);
    return new NetworkError(cause);
  };

  arm(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  try {
    let response: Response;
    try {
      response = await fetch(resolveUrl(url), {
        ...init,
        credentials: "include",
        signal: controller.signal,
      });
    } catch (cause) {
      throw failure(cause);
    }

    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !type.includes("text/event-stream") || !response.body) {
      let body: unknown;
      try {
        body = parseText(await response.text(), type);
      } catch (cause) {
        throw failure(cause);
      }
      if (!response.ok) {
        if (response.status === 401) handleUnauthorized();
        throw new ApiError(messageOf(body, response.status), { status: response.status, body });
      }
      return { streamed: false, body };
    }

    const idle = options.idleTimeoutMs ?? STREAM_IDLE_TIMEOUT_MS;
    arm(idle);
    const parser = createSseParser(options.onEvent);
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (cause) {
          throw failure(cause);
        }
        if (chunk.done) break;
        arm(idle);
        parser.push(decoder.decode(chunk.value, { stream: true }));
      }
      parser.push(decoder.decode());
      parser.end();
    } finally {
      reader.releaseLock();
    }
    return { streamed: true };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", forwardAbort);
  }
}
