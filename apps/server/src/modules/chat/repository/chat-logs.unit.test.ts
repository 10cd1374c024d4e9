import { describe, expect, it } from "vitest";
import { turnsByConversation } from "./chat-logs.ts";

describe("the call transcripts of the chat logs' export", () => {
  it("gives each conversation its own turns, in the order they were spoken", () => {
    const turns = turnsByConversation([
      { conversationId: "a", id: "1", sender: "user", content: "Hi" },
      { conversationId: "b", id: "2", sender: "user", content: "Hello" },
      { conversationId: "a", id: "3", sender: "ai", content: "Hey you" },
    ]);
    expect([...turns.keys()]).toEqual(["a", "b"]);
    expect(turns.get("a")?.map((turn) => turn.content)).toEqual(["Hi", "Hey you"]);
    expect(turns.get("b")).toEqual([{ id: "2", sender: "user", content: "Hello" }]);
  });
});
