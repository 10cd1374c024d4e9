import type { z } from "zod";
import { REQUEST_TIMEOUT_MS, UPLOAD_TIMEOUT_MS } from "../constants";
import { withCsrfRetry } from "./csrf";
import { ApiError } from "./errors";
import { authHeaders, type BearerKind } from "./rules";
import { type SendOptions, send } from "./send";

/** apiRequest and its `api.*` shorthands: JSON (or FormData) calls over fetch. */

export type QueryValue = string | number | boolean | null | undefined;

/**
 * What `schema` takes: a contract (zod) schema, or a reader with zod's `safeParse` shape. Readers
 * (`answerReader`) are only for the answers the landing page reads before zod is loaded
 * (decision 0033); every other call passes its contract schema.
 */
export interface AnswerSchema<T = unknown> {
  safeParse(
    value: unknown,
  ): { success: true; data: T; error?: undefined } | { success: false; error: unknown };
}

/** A reader for `schema` from a function that returns the value, or null when the answer is not one. */
export function answerReader<T>(read: (body: unknown) => T | null): AnswerSchema<T> {
  return {
    safeParse(value) {
      const data = read(value);
      return data === null
        ? { success: false, error: new Error("The answer is not the one expected") }
        : { success: true, data };
    },
  };
}

export interface RequestOptions extends SendOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** A JSON-serialisable value, or FormData for uploads (60 s timeout). */
  body?: unknown;
  /** Query parameters; null and undefined are left out. */
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** Overrides the timeout (default 15 s, 60 s for FormData bodies). */
  timeoutMs?: number;
  /** Which stored token to send as Bearer (a route's: `tokenFor(route.access)`). */
  token: BearerKind;
  /**
   * The contract schema of the answer: the answer is parsed with it (and typed by it); an answer
   * that does not match throws ApiError of kind "invalid-response". Every new call passes one.
   */
  schema?: z.ZodType | AnswerSchema;
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
export function buildInit(options: RequestOptions, csrf: string | null): RequestInit {
  const headers = new Headers(options.headers);
  headers.set("Accept", "application/json");
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body; // the browser sets the multipart boundary
  } else if (options.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.body);
  }
  for (const [name, value] of authHeaders(options.token, csrf)) {
    // A caller's own Authorization header wins over the stored token.
    if (name !== "Authorization" || !headers.has(name)) headers.set(name, value);
  }
  return { method: options.method ?? "GET", headers, body };
}

/** The answer, parsed with the contract schema when the call names one. */
export function checked(body: unknown, schema: z.ZodType | AnswerSchema | undefined): unknown {
  if (!schema) return body;
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ApiError("The server sent an unexpected answer", {
    status: 200,
    body,
    kind: "invalid-response",
    cause: parsed.error,
  });
}

/** What a call resolves to: the schema's output when it names one, else T. */
export type Answer<T, O> = O extends { schema: infer S }
  ? S extends z.ZodType
    ? z.output<S>
    : S extends AnswerSchema<infer R>
      ? R
      : T
  : T;

/**
 * Calls the API and resolves to the parsed answer (checked by `options.schema` when given).
 * @throws ApiError (HTTP error, with status, server message and raw body; or "invalid-response"),
 * NetworkError, TimeoutError
 */
export async function apiRequest<T = unknown, O extends RequestOptions = RequestOptions>(
  url: string,
  options: O,
): Promise<Answer<T, O>> {
  const fullUrl = withQuery(url, options.query);
  const timeoutMs =
    options.timeoutMs ??
    (options.body instanceof FormData ? UPLOAD_TIMEOUT_MS : REQUEST_TIMEOUT_MS);
  const body = await withCsrfRetry((csrf) =>
    send(fullUrl, buildInit(options, csrf), options, timeoutMs),
  );
  return checked(body, options.schema) as Answer<T, O>;
}

type BodylessOptions = Omit<RequestOptions, "method" | "body">;

/** Shorthands over apiRequest; `{ schema }` in the options parses and types the answer. */
export const api = {
  get: <T = unknown, O extends BodylessOptions = BodylessOptions>(url: string, options: O) =>
    apiRequest<T>(url, { ...options, method: "GET" }) as Promise<Answer<T, O>>,
  post: <T = unknown, O extends BodylessOptions = BodylessOptions>(
    url: string,
    body: unknown,
    options: O,
  ) => apiRequest<T>(url, { ...options, method: "POST", body }) as Promise<Answer<T, O>>,
  put: <T = unknown, O extends BodylessOptions = BodylessOptions>(
    url: string,
    body: unknown,
    options: O,
  ) => apiRequest<T>(url, { ...options, method: "PUT", body }) as Promise<Answer<T, O>>,
  patch: <T = unknown, O extends BodylessOptions = BodylessOptions>(
    url: string,
    body: unknown,
    options: O,
  ) => apiRequest<T>(url, { ...options, method: "PATCH", body }) as Promise<Answer<T, O>>,
  delete: <T = unknown, O extends BodylessOptions & { body?: unknown } = BodylessOptions>(
    url: string,
    options: O,
  ) => apiRequest<T>(url, { ...options, method: "DELETE" }) as Promise<Answer<T, O>>,
  /** Multipart upload (60 s timeout). */
  upload: <T = unknown, O extends BodylessOptions & { method?: "POST" | "PUT" } = BodylessOptions>(
    url: string,
    formData: FormData,
    options: O,
  ) =>
    apiRequest<T>(url, {
      ...options,
      method: options.method ?? "POST",
      body: formData,
    }) as Promise<Answer<T, O>>,
};
