import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { FAKE_OPENAI_KEY, type FakeOpenAi, makeWavTone, startFakeOpenAi } from "@twinline/fakes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, signUp } from "../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";
import { connectVoice } from "../../test/voice-client.ts";
import { REQUEST_ID_ATTRIBUTE } from "./tracing.ts";

/** A span as OTLP/HTTP JSON carries it (ids in hex). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: { stringValue?: string } }>;
  status?: { code?: number; message?: string };
}

interface OtlpTraces {
  resourceSpans: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

/** A local OTLP/HTTP receiver: every export posted to /v1/traces, as sent (JSON). */
async function startOtlpReceiver() {
  const exports: { path: string; contentType: string; body: OtlpTraces }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      exports.push({
        path: request.url ?? "",
        contentType: String(request.headers["content-type"]),
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpTraces,
      });
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    spans: () =>
      exports.flatMap((entry) =>
        entry.body.resourceSpans.flatMap((resource) =>
          resource.scopeSpans.flatMap((scope) => scope.spans),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const attribute = (span: OtlpSpan, key: string) =>
  span.attributes?.find((entry) => entry.key === key)?.value.stringValue;

/** Whether `ancestor` is `span`'s parent, or its parent's, and so on. */
function descendsFrom(span: OtlpSpan, ancestor: OtlpSpan, all: OtlpSpan[]): boolean {
  let current: OtlpSpan | undefined = span;
  for (let depth = 0; current?.parentSpanId && depth < 20; depth++) {
    if (current.parentSpanId === ancestor.spanId) return true;
    const parentId: string = current.parentSpanId;
    current = all.find((candidate) => candidate.spanId === parentId);
  }
  return false;
}

describe("traces to an OTLP receiver (OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  let t: TestApp;
  let openai: FakeOpenAi;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  const logLines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    openai = await startFakeOpenAi();
    t = await createTestApp({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/`,
        OTEL_SERVICE_NAME: "twinline-under-test",
        OPENAI_API_KEY: FAKE_OPENAI_KEY,
        OPENAI_BASE_URL: openai.baseUrl,
      },
      logger: {
        level: "info",
        stream: new Writable({
          write(chunk, _encoding, done) {
            logLines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
            done();
          },
        }),
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await openai?.close();
    await receiver?.close();
  });

  it("sends a chat send's spans: the request's, the LLM call below it, and the request id the log shows; a transaction below its request; a call's speech below its socket", async () => {
    const { token } = await signUp(t);
    const requestId = "chat-send-traced-0001";
    const response = await call(t, "POST", "/api/chat/message", {
      token,
      body: { message: "Hello, who are you?" },
      headers: { "x-request-id": requestId },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["x-request-id"]).toBe(requestId);

    // A live call: its provider calls (STT, LLM, the offline voice) are spans of its socket's trace.
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const caller = await signUp(t);
    const client = await connectVoice(origin, caller.token);
    await client.next("call_started");
    client.socket.send(makeWavTone(1));
    await client.next("audio_complete", 30_000);
    client.socket.close(1000);
    await client.closed;

    // Closing flushes the batch: every span of the app reaches the receiver before close ends.
    await t.close();
    expect(receiver.exports.length).toBeGreaterThan(0);
    expect(receiver.exports[0]?.path).toBe("/v1/traces");
    expect(receiver.exports[0]?.contentType).toMatch(/^application\/json/);
    const service = receiver.exports[0]?.body.resourceSpans[0]?.resource?.attributes?.find(
      (entry) => entry.key === "service.name",
    );
    expect(service?.value.stringValue).toBe("twinline-under-test");

    const spans = receiver.spans();
    const requestSpan = spans.find((span) => attribute(span, REQUEST_ID_ATTRIBUTE) === requestId);
    expect(requestSpan?.name).toBe("POST /api/chat/message");
    if (!requestSpan) return;
    const llm = spans.find(
      (span) => span.name === "llm.streamChat" && span.traceId === requestSpan.traceId,
    );
    expect(llm, spans.map((span) => span.name).join(", ")).toBeDefined();
    if (!llm) return;
    expect(descendsFrom(llm, requestSpan, spans)).toBe(true);
    expect(attribute(llm, "twinline.provider.implementation")).toBe("openai");
    // The route handler's span sits between them, named by the route too.
    const handler = spans.find((span) => span.spanId === llm.parentSpanId);
    expect(handler?.name).toBe("handler POST /api/chat/message");

    // Each transaction of a request is a span of it (the sign-up's: the account and its credits).
    const signUpSpan = spans.find((span) => span.name === "POST /api/auth/signup");
    const transactions = spans.filter((span) => span.name === "db.transaction");
    expect(transactions.length).toBeGreaterThan(0);
    expect(signUpSpan && transactions.some((span) => descendsFrom(span, signUpSpan, spans))).toBe(
      true,
    );

    // The call's socket request holds its turns' provider calls.
    const socketSpan = spans.find((span) => span.name === "GET /api/voice-call/ws");
    const speech = spans.filter((span) => span.name === "tts.synthesize");
    expect(speech.length).toBeGreaterThan(0);
    expect(socketSpan && speech.every((span) => descendsFrom(span, socketSpan, spans))).toBe(true);

    // The log's line of that request: the same request id, and the trace it belongs to.
    const logged = logLines.find(
      (line) => line.reqId === requestId && line.msg === "request completed",
    );
    expect(logged).toBeDefined();
    expect(logged?.traceId).toBe(requestSpan.traceId);
  });
});
