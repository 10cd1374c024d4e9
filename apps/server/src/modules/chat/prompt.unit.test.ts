import { describe, expect, it } from "vitest";
import { buildChatRequest, type ChatRequest, titleFrom, tokensOf } from "./prompt.ts";

const base = { personaName: "Nova", systemPrompt: "Be kind.", passages: ["Nova sings."] };

describe("buildChatRequest", () => {
  it("puts persona, instructions and passages in the system text, the message last", () => {
    const request = buildChatRequest({ ...base, history: [], message: "Hi" });
    expect(request.system).toContain("You are Nova.");
    expect(request.system).toContain("Be kind.");
    expect(request.system).toContain("Nova sings.");
    expect(request.messages).toEqual([{ role: "user", content: "Hi" }]);
  });

  it("keeps the newest history that fits the budget, in order, as an unbroken run", () => {
    const history = [
      { sender: "user" as const, content: "a".repeat(400) },
      { sender: "ai" as const, content: "old reply" },
      { sender: "user" as const, content: "b".repeat(40) },
      { sender: "ai" as const, content: "c".repeat(40) },
    ];
    const all = buildChatRequest({ ...base, history, message: "now", budgetTokens: 10_000 });
    expect(all.messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);

    const system = buildChatRequest({ ...base, history: [], message: "now" }).system;
    // Room for the two newest and the old reply (each its tokens + 4), not the 400-character one.
    const budget =
      tokensOf(system) +
      tokensOf("now") +
      8 +
      [...["old reply", "b".repeat(40), "c".repeat(40)]].reduce((n, t) => n + tokensOf(t) + 4, 0);
    const some = buildChatRequest({ ...base, history, message: "now", budgetTokens: budget });
    expect(some.messages).toEqual([
      { role: "assistant", content: "old reply" },
      { role: "user", content: "b".repeat(40) },
      { role: "assistant", content: "c".repeat(40) },
      { role: "user", content: "now" },
    ]);

    const none = buildChatRequest({ ...base, history, message: "now", budgetTokens: 1 });
    expect(none.messages).toEqual([{ role: "user", content: "now" }]);
  });
});

/** What the model is sent, counted the way the budget counts it. */
const sent = (request: ChatRequest) =>
  tokensOf(request.system) +
  request.messages.reduce((total, turn) => total + tokensOf(turn.content) + 4, 4);

describe("the shared token budget", () => {
  const words = (n: number, word: string) => Array.from({ length: n }, () => word).join(" ");
  const history = Array.from({ length: 200 }, (_, i) => ({
    sender: i % 2 ? ("ai" as const) : ("user" as const),
    content: `${words(60, `turn${i}`)}`,
  }));
  const parts = {
    personaName: "Nova",
    systemPrompt: "Be kind.",
    passages: [words(200, "knowledge1"), words(200, "knowledge2")],
    memory: {
      summary: words(80, "summary"),
      recalled: [words(150, "recall1"), words(150, "recall2")],
    },
    history,
    message: "What did I tell you?",
  };

  it("never sends more than the budget, however long the fan's past", () => {
    for (const budgetTokens of [200, 800, 2_000, 6_000]) {
      expect(sent(buildChatRequest({ ...parts, budgetTokens }))).toBeLessThanOrEqual(budgetTokens);
    }
  });

  it("drops older history first, then recall, then knowledge, then the summary", () => {
    const roomy = buildChatRequest({ ...parts, budgetTokens: 6_000 });
    expect(roomy.system).toContain("recall2");
    expect(roomy.system).toContain("knowledge2");
    expect(roomy.messages.length).toBeLessThan(history.length + 1);

    const tight = buildChatRequest({ ...parts, budgetTokens: 1_200 });
    expect(tight.system).toContain("summary");
    expect(tight.system).toContain("knowledge1");
    expect(tight.system).not.toContain("recall2");
    // The newest turns are kept before any of it.
    expect(tight.messages.at(-2)?.content).toContain("turn199");

    const small = buildChatRequest({ ...parts, budgetTokens: 500 });
    expect(small.system).not.toContain("knowledge1");
    expect(small.system).not.toContain("recall1");
    expect(small.messages.at(-1)?.content).toBe(parts.message);
  });

  it("cuts instructions longer than half the budget, never the new message", () => {
    const request = buildChatRequest({
      ...parts,
      systemPrompt: words(5_000, "rule"),
      budgetTokens: 1_000,
    });
    expect(sent(request)).toBeLessThanOrEqual(1_000);
    expect(request.messages.at(-1)?.content).toBe(parts.message);
  });
});

describe("titleFrom", () => {
  it("takes the first words, at most 60 characters", () => {
    expect(titleFrom("  Hello   there,\nhow are you today my old friend?  ")).toBe(
      "Hello there, how are you today my old",
    );
    expect(titleFrom("x".repeat(100))).toHaveLength(60);
  });
});
