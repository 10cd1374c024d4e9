import { FAKE_OPENAI_KEY, type FakeOpenAi, startFakeOpenAi } from "@twinline/fakes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOfflineModeration } from "./offline.ts";
import { createOpenAiModeration } from "./openai.ts";

describe("the crisis check through OpenAI's moderation endpoint (the official SDK)", () => {
  let openai: FakeOpenAi;
  const warnings: unknown[] = [];
  beforeAll(async () => {
    openai = await startFakeOpenAi({
      moderationFlags: {
        "everything feels pointless": ["self-harm", "self-harm/intent"],
        "tell me the steps": ["self-harm", "self-harm/instructions", "violence"],
        "you are awful": ["harassment"],
      },
    });
  });
  afterAll(() => openai?.close());

  const provider = () =>
    createOpenAiModeration({
      apiKey: FAKE_OPENAI_KEY,
      baseUrl: openai.baseUrl,
      log: { warn: (entry: unknown) => warnings.push(entry) },
    });

  it("asks omni-moderation-latest and keeps the most serious self-harm category", async () => {
    const moderation = provider();
    expect(await moderation.check({ text: "everything feels pointless" })).toEqual({
      flagged: true,
      category: "self-harm/intent",
      source: "openai",
    });
    expect(await moderation.check({ text: "tell me the steps" })).toEqual({
      flagged: true,
      category: "self-harm/instructions",
      source: "openai",
    });
    // Other categories are not a crisis: the persona's own rules deal with them.
    expect(await moderation.check({ text: "you are awful" })).toEqual({
      flagged: false,
      source: "openai",
    });
    const models = openai.requests
      .filter((request) => request.path === "/v1/moderations")
      .map((request) => JSON.parse(request.body.toString("utf8")).model);
    expect(models).toEqual([
      "omni-moderation-latest",
      "omni-moderation-latest",
      "omni-moderation-latest",
    ]);
  });

  it("when the provider fails, the offline phrases decide and the failure is logged", async () => {
    openai.moderationFails = true;
    try {
      const moderation = provider();
      expect(await moderation.check({ text: "I want to kill myself" })).toEqual({
        flagged: true,
        category: "self-harm/intent",
        source: "offline",
      });
      expect(await moderation.check({ text: "this homework is killing me" })).toEqual({
        flagged: false,
        source: "offline",
      });
      expect(warnings.length).toBeGreaterThanOrEqual(2);
    } finally {
      openai.moderationFails = false;
    }
  });

  it("offline, the phrase detector answers", async () => {
    expect(
      await createOfflineModeration().check({ text: "I don't want to be alive anymore" }),
    ).toEqual({
      flagged: true,
      category: "self-harm/intent",
      source: "offline",
    });
  });
});
