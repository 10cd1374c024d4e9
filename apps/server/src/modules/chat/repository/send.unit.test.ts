import { describe, expect, it } from "vitest";
import { sendOutcomeOf } from "./send.ts";

const saved = {
  taken: 3,
  id: "m1",
  conversation_id: "c1",
  user_id: "u1",
  sender: "user",
  content: "Hello",
  created_at: "2026-11-27T09:00:00.000Z",
};

describe("what a fan's send came to", () => {
  it("over today's free messages: refused, nothing counted", () => {
    expect(sendOutcomeOf({ ...saved, taken: null, id: null })).toEqual({ kind: "limit" });
    expect(sendOutcomeOf(undefined)).toEqual({ kind: "limit" });
  });

  it("counted into a conversation that is not theirs: not found, the count to give back", () => {
    expect(sendOutcomeOf({ ...saved, id: null })).toEqual({ kind: "notFound", count: 3 });
  });

  it("saved: the message as the chat shows it and the prompt's history, from either driver", () => {
    const history = [{ id: "m0", sender: "ai", content: "Hi!" }];
    for (const answered of [history, JSON.stringify(history)]) {
      const outcome = sendOutcomeOf({ ...saved, history: answered });
      expect(outcome).toMatchObject({ kind: "saved", count: 3, history });
      if (outcome.kind !== "saved") continue;
      expect(outcome.message).toMatchObject({ id: "m1", sender: "user", content: "Hello" });
      expect(outcome.message.createdAt.toISOString()).toBe("2026-11-27T09:00:00.000Z");
    }
  });
});
