import { describe, expect, it } from "vitest";
import type { DisplayMessage } from "../hooks/use-chat";
import { callLabel, groupCalls } from "./call-block";

const message = (key: string, callId?: string, callDuration?: number | null): DisplayMessage => ({
  key,
  sender: key.startsWith("u") ? "user" : "ai",
  content: key,
  ...(callId ? { callId, callDuration: callDuration ?? null } : {}),
});

describe("the chat's call entries", () => {
  it("gathers each call's consecutive turns into one entry, in place", () => {
    const entries = groupCalls([
      message("u1"),
      message("a1"),
      message("u2", "call-1", 185),
      message("a2", "call-1", 185),
      message("u3"),
      message("u4", "call-2"),
    ]);
    expect(
      entries.map((entry) =>
        entry.kind === "call"
          ? `call ${entry.callId} ${entry.turns.map((turn) => turn.key).join("+")}`
          : entry.message.key,
      ),
    ).toEqual(["u1", "a1", "call call-1 u2+a2", "u3", "call call-2 u4"]);
  });

  it("labels a call with its minutes once it ended", () => {
    expect(callLabel(185)).toBe("Voice call · 3 min");
    expect(callLabel(20)).toBe("Voice call · 1 min");
    expect(callLabel(null)).toBe("Voice call");
  });
});
