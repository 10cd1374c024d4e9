import { ApiError, NetworkError, TimeoutError } from "./errors";
import { apiFetch, httpFailure, parseText } from "./rules";

/** One fetch with a timeout and the caller's abort signal; the base of apiRequest and the CSRF fetch. */

export interface SendOptions {
  signal?: AbortSignal;
  /** How to read a successful answer (default: JSON when the server says so, else text). */
  responseType?: "json" | "blob" | "text";
}

async function readBody(response: Response, responseType?: SendOptions["responseType"]) {
  if (responseType === "blob" && response.ok) return response.blob();
  const text = await response.text();
  if (responseType === "text" && response.ok) return text;
  const type = responseType === "json" ? "json" : (response.headers.get("content-type") ?? "");
  return parseText(text, type);
}

/** One fetch with timeout; resolves to the parsed body or throws an ApiError. */
export async function send(
  url: string,
  init: RequestInit,
  options: SendOptions | null,
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
      response = await apiFetch(url, init, controller.signal);
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

    if (!response.ok) throw httpFailure(response.status, body);
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
