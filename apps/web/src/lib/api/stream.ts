import type { z } from "zod";
import { REQUEST_TIMEOUT_MS } from "../constants";
import { withCsrfRetry } from "./csrf";
import { NetworkError, TimeoutError } from "./errors";
import { type AnswerSchema, buildInit, checked } from "./request";
import { apiFetch, type BearerKind, httpFailure, parseText } from "./rules";
import { createSseParser, type StreamEvent } from "./sse-parser";

type Schema = z.ZodType | AnswerSchema;
type Parsed<S> = S extends z.ZodType ? z.output<S> : S extends AnswerSchema<infer R> ? R : unknown;

/** The events a stream's `events` schemas allow, each with its parsed data. */
export type TypedStreamEvent<E extends Record<string, Schema>> = {
  [K in keyof E & string]: { event: K; data: Parsed<E[K]> };
}[keyof E & string];

export interface ApiStreamOptions<
  E extends Record<string, Schema> = Record<string, Schema>,
  S extends Schema | undefined = Schema | undefined,
> {
  method?: "POST" | "PUT" | "PATCH" | "GET";
  /** A JSON-serialisable value. */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * The contract schema of each event's data, by event name. Each event is parsed before it
   * reaches `onEvent`; one off its schema ends the stream with an ApiError of kind
   * "invalid-response"; events without a schema here are ignored.
   */
  events: E;
  /** The contract schema of a plain JSON answer (a server answering without a stream). */
  schema?: S;
  /** Called for each event, in order, as it arrives. */
  onEvent: (event: TypedStreamEvent<E>) => void;
  /** Which stored token to send as Bearer (a route's: `tokenFor(route.access)`). */
  token: BearerKind;
  /** Time allowed for the answer to begin (default 15 s). */
  timeoutMs?: number;
  /** Time allowed between two pieces of the stream once it began (default 60 s). */
  idleTimeoutMs?: number;
}

/** How a streamed call ended: the stream ran to its end, or the server answered plain JSON. */
export type ApiStreamResult<B = unknown> = { streamed: true } | { streamed: false; body: B };

export const STREAM_IDLE_TIMEOUT_MS = 60_000;

/**
 * A call answered with server-sent events (e.g. POST /api/chat/message with
 * `Accept: text/event-stream`), with every rule of apiRequest: base URL, cookies, the csrf-token
 * header with one refresh-and-retry, the Bearer token named by `token`, 401 clearing the stored
 * tokens. Events reach `onEvent` as they arrive. A refusal (4xx/5xx before the stream) throws an
 * ApiError with the server's body; a broken connection a NetworkError; silence a TimeoutError;
 * the caller's abort is passed on untouched (and cancels the request, so the server can stop).
 * A server that answers JSON instead of a stream resolves to `{ streamed: false, body }`.
 */
export async function apiStream<
  E extends Record<string, Schema>,
  S extends Schema | undefined = undefined,
>(url: string, options: ApiStreamOptions<E, S>): Promise<ApiStreamResult<Parsed<S>>> {
  return withCsrfRetry(async (csrf) => {
    const init = buildInit(
      { method: options.method ?? "POST", body: options.body, token: options.token },
      csrf,
    );
    (init.headers as Headers).set("Accept", "text/event-stream");
    const outcome = await sendStream(url, init, options as unknown as ApiStreamOptions);
    if (outcome.streamed) return outcome;
    return { streamed: false, body: checked(outcome.body, options.schema) as Parsed<S> };
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
    const parser = createSseParser((event: StreamEvent) => {
      const schema = options.events[event.event];
      if (!schema) return;
      const data = checked(event.data, schema);
      (options.onEvent as (event: StreamEvent) => void)({ event: event.event, data });
    });
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
    } catch (error) {
      // An event off its contract (or a failing handler): stop the download too.
      controller.abort();
      throw error;
    } finally {
      reader.releaseLock();
    }
    return { streamed: true };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", forwardAbort);
  }
}
