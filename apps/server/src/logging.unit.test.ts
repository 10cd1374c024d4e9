import { describe, expect, it } from "vitest";
import { loggedUrl } from "./logging.ts";

describe("loggedUrl", () => {
  it("never writes the voice socket's token or csrf value", () => {
    expect(loggedUrl("/api/voice-call/ws?token=eyJhbGciOi.abc.def&csrf=xyz")).toBe(
      "/api/voice-call/ws?token=[redacted]&csrf=[redacted]",
    );
    expect(loggedUrl("/api/chat/messages?page=2")).toBe("/api/chat/messages?page=2");
  });
});
