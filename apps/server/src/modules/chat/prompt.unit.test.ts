import { describe, expect, it } from "vitest";
import { buildChatRequest, estimateTokens, titleFrom } from "./prompt.ts";

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
    // Room for the two newest (10 + 4 tokens each) and the old reply, not the 400-character one.
    const budget = estimateTokens(system) + estimateTokens("now") + 8 + 14 + 14 + 7;
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

describe("titleFrom", () => {
  it("takes the first words, at most 60 characters", () => {
    expect(titleFrom("  Hello   there,\nhow are you today my old friend?  ")).toBe(
      "Hello there, how are you today my old",
    );
    expect(titleFrom("x".repeat(100))).toHaveLength(60);
  });
});
