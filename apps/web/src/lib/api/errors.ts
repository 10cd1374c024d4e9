/** The client's failures (ApiError, NetworkError, TimeoutError) and how to read a server message. */

/** http: an error status; network, timeout: no answer; invalid-response: an answer off its contract. */
export type ApiErrorKind = "http" | "network" | "timeout" | "invalid-response";

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
  // An answer off its contract is the screen's own failure ("Failed to load users").
  if (error instanceof ApiError && error.kind === "invalid-response") return fallback;
  if (error instanceof ApiError) return error.message || fallback;
  return fallback;
}

/** The message the server wrote in an error body (`message`, else `error`), if any. */
export function serverMessageOf(body: unknown): string | null {
  if (body && typeof body === "object") {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (typeof message === "string" && message) return message;
    if (typeof error === "string" && error) return error;
  }
  return null;
}

/** The message for a failed answer: the server's, else "Request failed with status N". */
export function messageOf(body: unknown, status: number): string {
  return serverMessageOf(body) ?? `Request failed with status ${status}`;
}
