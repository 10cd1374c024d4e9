import { PRODUCT_KIND_LABELS } from "@twinline/contracts";
import { describe, expect, it } from "vitest";
import type { ChatLogRow } from "../repository.ts";
import { toChatLog, transcriptText } from "./views.ts";

describe("the admin's chat logs", () => {
  it("write a call's transcript with the fan, the persona and the product's notice named", () => {
    const text = transcriptText(
      [
        {
          id: "1",
          sender: "product",
          productKind: "ai-notice",
          content: "You are talking to an AI.",
        },
        { id: "2", sender: "user", content: "Hi" },
        { id: "3", sender: "ai", content: "Hey you" },
      ],
      "Ava",
    );
    expect(text).toBe(
      `[${PRODUCT_KIND_LABELS["ai-notice"]}]: You are talking to an AI.\nFan: Hi\nAva: Hey you`,
    );
    expect(transcriptText([], "Ava")).toBe("");
  });

  it("show a conversation's length in whole seconds, its plan and its calls", () => {
    const row = {
      conversation: {
        id: "c1",
        startedAt: new Date("2026-11-27T09:00:00.000Z"),
        lastMessageAt: new Date("2026-11-27T09:02:05.600Z"),
        messageCount: 7,
        callCount: 2,
      },
      flagged: 1,
      user: {
        id: "u1",
        name: "Sam",
        email: "sam@example.com",
        profileImage: null,
        subscribed: true,
      },
    } as unknown as ChatLogRow;
    expect(toChatLog(row, "Ava")).toMatchObject({
      _id: "c1",
      character: "Ava",
      duration: 126,
      messageCount: 7,
      plan: "premium",
      calls: 2,
      flagged: 1,
    });
  });
});
