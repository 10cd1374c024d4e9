import { routes } from "@twinline/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  ApiError,
  apiStream,
  createSseParser,
  NetworkError,
  resetCsrfToken,
  type StreamEvent,
  streamRoute,
  TimeoutError,
} from "./api-client";

const CSRF_PATH = routes.security.csrfToken.path;
/** The chat's send, the stream these tests read. */
const SEND_PATH = routes.chat.send.path;

/** Every event these tests send, with any data. */
const ANY_EVENTS = { token: z.unknown(), done: z.unknown(), error: z.unknown() };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** A text/event-stream answer whose body is pushed by the test, piece by piece. */
function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { headers: { "content-type": "text/event-stream" } }),
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
    fail: (error: unknown) => controller.error(error),
  };
}

function sse(text: string): Response {
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

interface Call {
  url: string;
  init: RequestInit;
  headers: Headers;
}

function fakeFetch(handler: (call: Call, index: number) => Response | Promise<Response>) {
  const calls: Call[] = [];
  let csrf = 0;
  let index = 0;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const call = { url, init, headers: new Headers(init.headers) };
    calls.push(call);
    if (url.endsWith(CSRF_PATH)) return json({ csrfToken: `tok-${++csrf}` });
    return handler(call, index++);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls, apiCalls: () => calls.filter((c) => !c.url.endsWith(CSRF_PATH)) };
}

beforeEach(() => {
  resetCsrfToken();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("createSseParser", () => {
  it("splits events across any chunking, joins data lines, skips comments, parses JSON", () => {
    const events: StreamEvent[] = [];
    const parser = createSseParser((e) => events.push(e));
    const text =
      ': keep-alive\r\nevent: token\r\ndata: {"text":"Hel"}\r\n\r\nevent: token\ndata: {"text":"lo"}\n\n' +
      'data: line one\ndata: line two\n\nevent: done\ndata: {"ok":true}';
    for (const piece of text.match(/[\s\S]{1,3}/g) ?? []) parser.push(piece);
    parser.end();
    expect(events).toEqual([
      { event: "token", data: { text: "Hel" } },
      { event: "token", data: { text: "lo" } },
      { event: "message", data: "line one\nline two" },
      { event: "done", data: { ok: true } },
    ]);
  });

  it("delivers the last event when the stream closes on a lone carriage return", () => {
    const events: StreamEvent[] = [];
    const parser = createSseParser((e) => events.push(e));
    parser.push('event: done\rdata: {"ok":true}\r');
    expect(events).toEqual([]);
    parser.end();
    expect(events).toEqual([{ event: "done", data: { ok: true } }]);
  });

  it("ignores an event with no data", () => {
    const events: StreamEvent[] = [];
    const parser = createSseParser((e) => events.push(e));
    parser.push("event: ping\n\n");
    parser.end();
    expect(events).toEqual([]);
  });
});

describe("apiStream", () => {
  it("posts JSON with the stream Accept header, csrf-token and the user's Bearer token", async () => {
    localStorage.setItem("userToken", "user-1");
    const { apiCalls } = fakeFetch(() => sse('event: done\ndata: {"n":1}\n\n'));
    const events: StreamEvent[] = [];
    const result = await apiStream(SEND_PATH, {
      token: "user",
      events: ANY_EVENTS,
      body: { message: "hi" },
      onEvent: (e) => events.push(e),
    });
    expect(result).toEqual({ streamed: true });
    expect(events).toEqual([{ event: "done", data: { n: 1 } }]);
    const [call] = apiCalls();
    expect(call?.init.method).toBe("POST");
    expect(call?.init.credentials).toBe("include");
    expect(call?.init.body).toBe(JSON.stringify({ message: "hi" }));
    expect(call?.headers.get("accept")).toBe("text/event-stream");
    expect(call?.headers.get("content-type")).toBe("application/json");
    expect(call?.headers.get("csrf-token")).toBe("tok-1");
    expect(call?.headers.get("authorization")).toBe("Bearer user-1");
    localStorage.clear();
  });

  it("streams a route with its definition's token, else with the kind it is given", async () => {
    localStorage.setItem("userToken", "user-1");
    localStorage.setItem("adminToken", "admin-1");
    const { apiCalls } = fakeFetch(() => sse('event: done\ndata: {"n":1}\n\n'));
    await streamRoute(routes.chat.send, { events: ANY_EVENTS, body: {}, onEvent: () => {} });
    await apiStream(SEND_PATH, { token: "admin", events: ANY_EVENTS, onEvent: () => {} });
    expect(apiCalls().map((c) => c.headers.get("authorization"))).toEqual([
      "Bearer user-1",
      "Bearer admin-1",
    ]);
    localStorage.clear();
  });

  it("parses each event with its schema, ignores unnamed events and fails on one off its schema", async () => {
    fakeFetch(() =>
      sse(
        'event: token\ndata: {"text":"a"}\n\nevent: ping\ndata: 1\n\nevent: token\ndata: {"text":2}\n\n',
      ),
    );
    const events: StreamEvent[] = [];
    const error = await apiStream(SEND_PATH, {
      token: "user",
      events: { token: z.object({ text: z.string() }) },
      onEvent: (e) => events.push(e),
    }).catch((e: unknown) => e);
    expect(events).toEqual([{ event: "token", data: { text: "a" } }]);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe("invalid-response");
  });

  it("parses a plain JSON answer with the call's schema", async () => {
    fakeFetch(() => json({ success: true, data: { n: 1 }, extra: true }));
    await expect(
      apiStream(SEND_PATH, {
        token: "user",
        events: {},
        schema: z.object({ success: z.literal(true), data: z.object({ n: z.number() }) }),
        onEvent: () => {},
      }),
    ).resolves.toEqual({ streamed: false, body: { success: true, data: { n: 1 } } });
    fakeFetch(() => json({ success: true }));
    await expect(
      apiStream(SEND_PATH, {
        token: "user",
        events: {},
        schema: z.object({ data: z.object({ n: z.number() }) }),
        onEvent: () => {},
      }),
    ).rejects.toMatchObject({ kind: "invalid-response" });
  });

  it("delivers each event as soon as its piece arrives", async () => {
    const stream = controlledStream();
    fakeFetch(() => stream.response);
    const events: StreamEvent[] = [];
    const done = apiStream(SEND_PATH, {
      token: "user",
      events: ANY_EVENTS,
      body: {},
      onEvent: (e) => events.push(e),
    });
    stream.push('event: token\ndata: {"text":"Hi"}\n\n');
    await vi.waitFor(() => expect(events).toHaveLength(1));
    stream.push('event: token\ndata: {"te');
    stream.push('xt":" there"}\n\n');
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events[1]).toEqual({ event: "token", data: { text: " there" } });
    stream.close();
    await expect(done).resolves.toEqual({ streamed: true });
  });

  it("throws an ApiError with the server's body for a refusal before the stream", async () => {
    const refusal = {
      success: false,
      message: "Daily free message limit reached",
      error: "Daily free message limit reached",
      dailyLimit: 5,
    };
    fakeFetch(() => json(refusal, 403));
    const error = await apiStream(SEND_PATH, {
      token: "user",
      events: ANY_EVENTS,
      body: {},
      onEvent: () => {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).body).toEqual(refusal);
  });

  it("refreshes the CSRF token and retries once", async () => {
    const { apiCalls } = fakeFetch((_call, index) =>
      index === 0
        ? json({ success: false, message: "Invalid CSRF token" }, 403)
        : sse('event: done\ndata: {"ok":1}\n\n'),
    );
    const events: StreamEvent[] = [];
    await apiStream(SEND_PATH, {
      token: "user",
      events: ANY_EVENTS,
      body: {},
      onEvent: (e) => events.push(e),
    });
    expect(apiCalls().map((c) => c.headers.get("csrf-token"))).toEqual(["tok-1", "tok-2"]);
    expect(events).toHaveLength(1);
  });

  it("clears the stored session on 401", async () => {
    localStorage.setItem("userToken", "old");
    fakeFetch(() => json({ success: false, message: "Unauthorized" }, 401));
    await expect(
      apiStream(SEND_PATH, {
        token: "user",
        events: ANY_EVENTS,
        onEvent: () => {},
      }),
    ).rejects.toMatchObject({
      status: 401,
    });
    expect(localStorage.getItem("userToken")).toBeNull();
  });

  it("resolves to the body when the server answers JSON instead", async () => {
    fakeFetch(() => json({ success: true, data: { response: "Hi" } }));
    await expect(
      apiStream(SEND_PATH, {
        token: "user",
        events: ANY_EVENTS,
        onEvent: () => {},
      }),
    ).resolves.toEqual({
      streamed: false,
      body: { success: true, data: { response: "Hi" } },
    });
  });

  it("passes the caller's abort on untouched and aborts the request", async () => {
    const stream = controlledStream();
    const { apiCalls } = fakeFetch((call) => {
      call.init.signal?.addEventListener("abort", () =>
        stream.fail(new DOMException("aborted", "AbortError")),
      );
      return stream.response;
    });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    const done = apiStream(SEND_PATH, {
      token: "user",
      events: ANY_EVENTS,
      signal: controller.signal,
      onEvent: (e) => events.push(e),
    });
    stream.push('event: token\ndata: {"text":"a"}\n\n');
    await vi.waitFor(() => expect(events).toHaveLength(1));
    const reason = new DOMException("left the page", "AbortError");
    controller.abort(reason);
    await expect(done).rejects.toBe(reason);
    expect(apiCalls()[0]?.init.signal?.aborted).toBe(true);
  });

  it("gives a NetworkError when the connection breaks mid-stream", async () => {
    const stream = controlledStream();
    fakeFetch(() => stream.response);
    const done = apiStream(SEND_PATH, {
      token: "user",
      events: ANY_EVENTS,
      onEvent: () => {},
    });
    stream.push('event: token\ndata: {"text":"a"}\n\n');
    stream.fail(new TypeError("network"));
    await expect(done).rejects.toBeInstanceOf(NetworkError);
  });

  it("gives a TimeoutError when the stream falls silent", async () => {
    const stream = controlledStream();
    fakeFetch((call) => {
      call.init.signal?.addEventListener("abort", () => stream.fail(new TypeError("aborted")));
      return stream.response;
    });
    const done = apiStream(SEND_PATH, {
      token: "user",
      events: ANY_EVENTS,
      onEvent: () => {},
      idleTimeoutMs: 30,
    });
    await expect(done).rejects.toBeInstanceOf(TimeoutError);
  });
});
