import { FAKE_OPENAI_MODELS, type FakeOpenAi, startFakeOpenAi } from "@twinline/fakes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { createProviderResolver } from "../resolve.ts";
import { createOfflineLlm } from "./offline.ts";
import { createOpenAiLlm } from "./openai.ts";
import { composeSystemPrompt, parseSystemPrompt } from "./system-prompt.ts";

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of stream) pieces.push(piece);
  return pieces;
}

const system = composeSystemPrompt({
  personaName: "Nova Star",
  instructions: "Be warm and brief.",
  passages: [
    "Nova grew up in Lisbon and\nstarted singing at twelve.",
    "Nova's favourite food is grilled sardines.",
  ],
});

describe("system prompt", () => {
  it("reads back what it composed", () => {
    expect(parseSystemPrompt(system)).toEqual({
      personaName: "Nova Star",
      instructions: "Be warm and brief.",
      passages: [
        "Nova grew up in Lisbon and started singing at twelve.",
        "Nova's favourite food is grilled sardines.",
      ],
    });
  });
});

describe("offline LLM", () => {
  const llm = createOfflineLlm();

  it("answers in the persona's voice from the best passage, word by word, deterministically", async () => {
    const request = {
      system,
      messages: [{ role: "user" as const, content: "What is your favourite food?" }],
    };
    const pieces = await collect(llm.streamChat(request));
    expect(pieces.length).toBeGreaterThan(5);
    const answer = pieces.join("");
    expect(answer).toMatch(/^\(Offline mode\) Hi, I'm Nova Star\./);
    expect(answer).toContain("grilled sardines");
    expect((await collect(llm.streamChat(request))).join("")).toBe(answer);
  });

  it("says so when the knowledge has nothing on the question", async () => {
    const answer = (
      await collect(
        llm.streamChat({
          system,
          messages: [{ role: "user", content: "Quantum chromodynamics?" }],
        }),
      )
    ).join("");
    expect(answer).toContain("Offline mode");
    expect(answer).not.toContain("Lisbon");
    expect(llm.mode).toBe("offline");
  });
});

describe("OpenAI LLM (real SDK against a local OpenAI-speaking server)", () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(() => fake?.close());

  const llmWith = (apiKey: string) =>
    createOpenAiLlm({ apiKey, baseUrl: fake.baseUrl, model: "gpt-test" });

  it("lists models", async () => {
    expect(await llmWith("sk-test-fake-openai-key-123456").listModels()).toEqual(
      FAKE_OPENAI_MODELS,
    );
  });

  it("streams the completion's pieces as they arrive, with the system text first", async () => {
    fake.requests.length = 0;
    const pieces = await collect(
      llmWith("sk-test-fake-openai-key-123456").streamChat({
        system,
        messages: [
          { role: "user", content: "Hi" },
          { role: "assistant", content: "Hello!" },
          { role: "user", content: "Who are you?" },
        ],
        maxTokens: 50,
      }),
    );
    expect(pieces).toEqual(["Hello", " from", " the", " fake", " model."]);
    const sent = JSON.parse(fake.requests.at(-1)?.body.toString() ?? "{}");
    expect(sent).toMatchObject({ model: "gpt-test", stream: true, max_tokens: 50 });
    expect(sent.messages[0]).toEqual({ role: "system", content: system });
    expect(sent.messages).toHaveLength(4);
  });

  it("fails with the provider's message on a wrong key", async () => {
    await expect(
      collect(
        llmWith("sk-wrong-key-000000").streamChat({
          system,
          messages: [{ role: "user", content: "Hi" }],
        }),
      ),
    ).rejects.toThrow(/Incorrect API key provided/);
  });

  it("cancels the provider request when the signal aborts", async () => {
    fake.hang = true;
    try {
      const controller = new AbortController();
      const stream = llmWith("sk-test-fake-openai-key-123456").streamChat({
        system,
        messages: [{ role: "user", content: "Hi" }],
        signal: controller.signal,
      });
      const iterator = stream[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toBe("Hello");
      controller.abort();
      // The SDK ends the stream quietly on abort (or throws, depending on timing): either way
      // no more pieces, and the server sees its client go.
      const after = await iterator.next().catch(() => ({ done: true, value: undefined }));
      expect(after).toEqual({ done: true, value: undefined });
      await fake.clientClosed;
    } finally {
      fake.hang = false;
    }
  });
});

describe("the LLM in force", () => {
  const config = loadConfig({
    DATA_DIR: "/tmp/twinline-unused",
    SECRETS_KEY: "x".repeat(32),
    JWT_SECRET: "y".repeat(32),
  });
  const llm = (deps: Parameters<typeof createProviderResolver>[0]) =>
    createProviderResolver(deps).llm();

  it("is offline without a key, OpenAI with the env key, and the stored key wins", async () => {
    expect((await llm({ config })).mode).toBe("offline");
    const withEnv = { ...config, openai: { ...config.openai, apiKey: "sk-env" } };
    expect((await llm({ config: withEnv })).mode).toBe("openai");
    const stored = await llm({ config, storedKeys: async () => ({ openai: "sk-stored" }) });
    expect(stored.mode).toBe("openai");
  });

  it("is built once per key: the same client until the key in force changes", async () => {
    let stored: string | undefined = "sk-first";
    const providers = createProviderResolver({
      config,
      storedKeys: async () => ({ openai: stored }),
    });
    const first = await providers.llm();
    expect(await providers.llm()).toBe(first);
    stored = "sk-second";
    const second = await providers.llm();
    expect(second).not.toBe(first);
    expect(second.mode).toBe("openai");
    stored = undefined;
    expect((await providers.llm()).mode).toBe("offline");
  });
});
