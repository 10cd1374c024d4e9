import { REQUEST_TIMEOUT_MS } from "../constants";
import { withCsrfRetry } from "./csrf";
import { NetworkError, TimeoutError } from "./errors";
import { buildInit } from "./request";
import { apiFetch, type BearerKind, httpFailure, parseText } from "./rules";
import { createSseParser, type StreamEvent } from "./sse-parser";

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
 * A call answered with server-sent events (e.g. POST /api/chat/message with
 * `Accept: text/event-stream`), with every rule of apiRequest: base URL, cookies, the csrf-token
 * header with one refresh-and-retry, the Bearer token (by URL or `token`), 401 clearing the stored
 * tokens. Events reach `onEvent` as they arrive. A refusal (4xx/5xx before the stream) throws an
 * ApiError with the server's body; a broken connection a NetworkError; silence a TimeoutError;
 * the caller's abort is passed on untouched (and cancels the request, so the server can stop).
 * A server that answers JSON instead of a stream resolves to `{ streamed: false, body }`.
 */
export async function apiStream(url: string, options: ApiStreamOptions): Promise<ApiStreamResult> {
  return withCsrfRetry((csrf) => {
    const init = buildInit(
      url,
      { method: options.method ?? "POST", body: options.body, token: options.token },
      csrf,
    );
    (init.headers as Headers).set("Accept", "text/event-stream");
    return sendStream(url, init, options);
  });
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
      response = await apiFetch(url, init, controller.signal);
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
      if (!response.ok) throw httpFailure(response.status, body);
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
