import { csrfTokenAddress } from "@twinline/contracts";
import { REQUEST_TIMEOUT_MS } from "../constants";
import { ApiError } from "./errors";
import { send } from "./send";

/**
 * The CSRF token: fetched once from GET /api/csrf-token and cached; a 403 whose message mentions
 * "CSRF token" refreshes it and retries the call once (withCsrfRetry, used by every transport).
 */

export const CSRF_TOKEN_PATH = csrfTokenAddress.path;

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

/**
 * Runs `attempt` with the cached CSRF token; when the server refuses it (403 "CSRF token"), calls
 * `beforeRetry`, then runs `attempt` once more with a freshly fetched token.
 */
export async function withCsrfRetry<T>(
  attempt: (csrf: string | null) => Promise<T>,
  beforeRetry?: () => void,
): Promise<T> {
  const run = async (refreshCsrf: boolean) => attempt(await getCsrfToken(refreshCsrf));
  try {
    return await run(false);
  } catch (error) {
    if (error instanceof ApiError && isCsrfError(error)) {
      beforeRetry?.();
      return await run(true);
    }
    throw error;
  }
}
