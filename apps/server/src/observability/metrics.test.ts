import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeOpenAi, makeWavTone, startFakeOpenAi } from "@twinline/fakes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, signUp } from "../../test/accounts.ts";
import { createPackage, sandboxBuy } from "../../test/billing.ts";
import { createTestApp, type TestApp } from "../../test/create-test-app.ts";
import { connectVoice } from "../../test/voice-client.ts";
import { METRICS_MESSAGES } from "./plugin.ts";

const METRICS_TOKEN = "metrics-token-for-the-test-0123456789";

/** A web build, so an unknown path answers the app's 404 page (not the "no build" 503). */
function fakeWebBuild(): string {
  const dist = mkdtempSync(join(tmpdir(), "twinline-web-dist-"));
  writeFileSync(join(dist, "index.html"), "<!doctype html><div id=root></div>");
  return dist;
}

const scrape = (t: TestApp, authorization?: string) =>
  t.app.inject({
    method: "GET",
    url: "/metrics",
    ...(authorization ? { headers: { authorization } } : {}),
  });

/** The value of one series of the exposition text (labels as Prometheus writes them), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics without METRICS_TOKEN", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ webDistDir: fakeWebBuild() });
  });
  afterAll(() => t?.close());

  it("is not served at all: the app's 404, with or without a token", async () => {
    for (const authorization of [undefined, `Bearer ${METRICS_TOKEN}`]) {
      const response = await scrape(t, authorization);
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain("http_request_duration_seconds");
    }
    expect(t.app.observability.metrics.enabled).toBe(false);
  });
});

describe("GET /metrics with METRICS_TOKEN", () => {
  let t: TestApp;
  let openai: FakeOpenAi;
  beforeAll(async () => {
    openai = await startFakeOpenAi();
    t = await createTestApp({
      env: {
        METRICS_TOKEN,
        // A key the provider refuses: every chat reply fails (401, no retry).
        OPENAI_API_KEY: "sk-test-a-key-the-fake-refuses-0000",
        OPENAI_BASE_URL: openai.baseUrl,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await openai?.close();
  });

  it("refuses a scrape without the token, or with another, with 401", async () => {
    for (const authorization of [
      undefined,
      "Bearer wrong-token",
      `Bearer ${METRICS_TOKEN}x`,
      `Basic ${METRICS_TOKEN}`,
      METRICS_TOKEN,
    ]) {
      const response = await scrape(t, authorization);
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.headers["www-authenticate"]).toBe("Bearer");
      expect(response.json().message).toBe(METRICS_MESSAGES.unauthorized);
      expect(response.body).not.toContain("http_request_duration_seconds");
    }
  });

  it("counts requests under their route template, never the raw URL", async () => {
    const { token } = await signUp(t);
    const ids = [randomUUID(), randomUUID()];
    for (const id of ids) {
      const response = await call(t, "GET", `/api/voice-call/calls/${id}`, { token });
      expect(response.statusCode).toBe(404);
    }
    const response = await scrape(t, `Bearer ${METRICS_TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers["cache-control"]).toBe("no-store");
    const text = response.body;
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="/api/voice-call/calls/:id",status_code="404"}',
      ),
    ).toBe(2);
    for (const id of ids) expect(text).not.toContain(id);
    // The scrape's own gauges and Node's event-loop delay are there.
    expect(text).toContain("nodejs_eventloop_lag_p99_seconds");
    expect(sample(text, "twinline_voice_live_calls")).toBe(0);
    expect(sample(text, 'twinline_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect(sample(text, 'twinline_rate_limit_store_degraded{store="memory"}')).toBe(0);
    // Each defined job's queue depth, from the job queue itself.
    expect(
      sample(text, 'twinline_job_queue_depth{queue="billing.renewals"}'),
    ).toBeGreaterThanOrEqual(0);
  });

  it("counts a path that matched no route as one series, not per URL", async () => {
    await t.app.inject({ method: "GET", url: `/api/no-such-thing/${randomUUID()}` });
    const text = (await scrape(t, `Bearer ${METRICS_TOKEN}`)).body;
    expect(text).toMatch(/route="unmatched",status_code="404"/);
    expect(text).not.toContain("/api/no-such-thing");
  });

  it("counts a provider's failure under its provider, implementation and operation", async () => {
    const { token } = await signUp(t);
    const response = await call(t, "POST", "/api/chat/message", {
      token,
      body: { message: "Hello there" },
    });
    expect(response.statusCode).toBe(502);
    const text = (await scrape(t, `Bearer ${METRICS_TOKEN}`)).body;
    expect(
      sample(
        text,
        'twinline_provider_errors_total{provider="llm",implementation="openai",operation="streamChat"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'twinline_provider_call_duration_seconds_count{provider="llm",implementation="openai",operation="streamChat",outcome="error"}',
      ),
    ).toBe(1);
  });
});

describe("the voice and payment metrics", () => {
  let t: TestApp;
  let origin: string;
  beforeAll(async () => {
    // Offline: the call answers every utterance with its fixed line, in the offline voice.
    t = await createTestApp({
      env: { METRICS_TOKEN, POCKETSPHINX_BIN: "/nonexistent/pocketsphinx_continuous" },
    });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  const metricsText = async () => (await scrape(t, `Bearer ${METRICS_TOKEN}`)).body;

  it("counts a live call while it lasts, and its end of speech to first audio", async () => {
    const session = await signUp(t);
    const client = await connectVoice(origin, session.token);
    await client.next("call_started");
    expect(sample(await metricsText(), "twinline_voice_live_calls")).toBe(1);
    client.socket.send(makeWavTone(1));
    await client.next("audio_start", 30_000);
    await client.next("audio_complete", 30_000);
    const text = await metricsText();
    expect(sample(text, "twinline_voice_first_audio_seconds_count")).toBe(1);
    expect(sample(text, "twinline_voice_first_audio_seconds_sum")).toBeGreaterThan(0);
    // The offline voice is a provider call too.
    expect(
      sample(
        text,
        'twinline_provider_call_duration_seconds_count{provider="tts",implementation="offline",operation="synthesize",outcome="ok"}',
      ),
    ).toBeGreaterThan(0);
    client.socket.close(1000);
    await client.closed;
    await expect.poll(async () => sample(await metricsText(), "twinline_voice_live_calls")).toBe(0);
  });

  it("observes the lag of each payment event the sandbox delivers", async () => {
    const admin = await adminSession(t);
    const pack = await createPackage(t, admin.token, { credits: 100, price: 5 });
    const buyer = await signUp(t);
    const { paid } = await sandboxBuy(t, buyer.token, { packageId: pack._id });
    expect(paid.statusCode, paid.body).toBe(200);
    const text = await metricsText();
    const events = sample(text, 'twinline_webhook_lag_seconds_count{source="sandbox"}') ?? 0;
    expect(events).toBeGreaterThan(0);
    expect(sample(text, 'twinline_webhook_lag_seconds_bucket{le="5",source="sandbox"}')).toBe(
      events,
    );
  });
});
