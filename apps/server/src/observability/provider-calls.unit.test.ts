import { describe, expect, it } from "vitest";
import { NO_METRICS, NO_OBSERVABILITY, type Observability } from "./observability.ts";
import { observeProvider } from "./provider-calls.ts";

type Call = [string, string, string, number, string];

function recording() {
  const calls: Call[] = [];
  const spans: Array<{ name: string; events: string[]; error?: unknown; ended: boolean }> = [];
  const observability: Observability = {
    metrics: {
      ...NO_METRICS,
      enabled: true,
      providerCall: (...args) => {
        calls.push(args);
      },
    },
    tracing: {
      plugin: async () => {},
      shutdown: async () => {},
      startSpan(name) {
        const span = { name, events: [] as string[], ended: false, error: undefined as unknown };
        spans.push(span);
        return {
          run: (fn) => fn(),
          event: (event) => span.events.push(event),
          end(error) {
            span.ended = true;
            span.error = error;
          },
        };
      },
    },
  };
  return { observability, calls, spans };
}

const abortError = () =>
  Object.assign(new Error("The operation was aborted"), { name: "AbortError" });

describe("observeProvider", () => {
  it("answers the provider itself while metrics and traces are off", () => {
    const provider = { mode: "offline", send: async () => 1 };
    expect(observeProvider(NO_OBSERVABILITY, "mail", "outbox", provider)).toBe(provider);
  });

  it("times a call that resolves and one that rejects, with a span each", async () => {
    const { observability, calls, spans } = recording();
    const provider = observeProvider(observability, "tts", "offline", {
      mode: "offline" as const,
      synthesize: async (text: string) => `audio of ${text}`,
      cloneVoice: async () => {
        throw new Error("cannot clone offline");
      },
    });
    expect(provider.mode).toBe("offline");
    await expect(provider.synthesize("hi")).resolves.toBe("audio of hi");
    await expect(provider.cloneVoice()).rejects.toThrow("cannot clone offline");
    expect(calls.map(([kind, impl, op, , outcome]) => [kind, impl, op, outcome])).toEqual([
      ["tts", "offline", "synthesize", "ok"],
      ["tts", "offline", "cloneVoice", "error"],
    ]);
    expect(spans.map((span) => [span.name, span.ended])).toEqual([
      ["tts.synthesize", true],
      ["tts.cloneVoice", true],
    ]);
    expect(spans[1]?.error).toBeInstanceOf(Error);
  });

  it("times a stream from its start to its last piece, and marks its first chunk", async () => {
    const { observability, calls, spans } = recording();
    let finishedReading = false;
    const llm = observeProvider(observability, "llm", "openai", {
      mode: "openai",
      async *streamChat() {
        yield "Hello";
        await new Promise((resolve) => setTimeout(resolve, 20));
        yield " there";
        finishedReading = true;
      },
    });
    const pieces: string[] = [];
    const stream = llm.streamChat();
    // Nothing is recorded before the stream ends.
    expect(calls).toEqual([]);
    for await (const piece of stream) pieces.push(piece);
    expect(pieces).toEqual(["Hello", " there"]);
    expect(finishedReading).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[2]).toBe("streamChat");
    expect(calls[0]?.[3]).toBeGreaterThanOrEqual(0.015);
    expect(calls[0]?.[4]).toBe("ok");
    expect(spans[0]?.events).toEqual(["first chunk"]);
  });

  it("counts a stream left early as ok, one that fails as an error, an abort as neither", async () => {
    const { observability, calls } = recording();
    const llm = observeProvider(observability, "llm", "openai", {
      mode: "openai",
      async *streamChat(fail?: "error" | "abort") {
        yield "a";
        if (fail === "error") throw new Error("provider down");
        if (fail === "abort") throw abortError();
        yield "b";
      },
    });
    for await (const _piece of llm.streamChat()) break;
    await expect(async () => {
      for await (const _piece of llm.streamChat("error"));
    }).rejects.toThrow("provider down");
    await expect(async () => {
      for await (const _piece of llm.streamChat("abort"));
    }).rejects.toThrow("aborted");
    expect(calls.map((call) => call[4])).toEqual(["ok", "error", "aborted"]);
  });

  it("times the payments' catalogue calls too, and leaves a missing catalogue alone", async () => {
    const { observability, calls } = recording();
    const stripe = observeProvider(observability, "payments", "stripe", {
      mode: "stripe",
      catalogue: { listProducts: async () => [] as string[] },
    });
    await stripe.catalogue.listProducts();
    expect(calls[0]?.slice(0, 3)).toEqual(["payments", "stripe", "catalogue.listProducts"]);
    const sandbox = observeProvider(observability, "payments", "sandbox", {
      mode: "sandbox",
      catalogue: null,
    });
    expect(sandbox.catalogue).toBeNull();
  });
});
