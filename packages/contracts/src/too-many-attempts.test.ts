import { describe, expect, it } from "vitest";
import { tooManyAttemptsMessage } from "./auth";

describe("tooManyAttemptsMessage", () => {
  it("says the real wait: seconds under a minute, else whole minutes rounded up", () => {
    expect(tooManyAttemptsMessage(1)).toBe(
      "Too many attempts. Please wait 1 second and try again.",
    );
    expect(tooManyAttemptsMessage(0.2)).toBe(
      "Too many attempts. Please wait 1 second and try again.",
    );
    expect(tooManyAttemptsMessage(45)).toBe(
      "Too many attempts. Please wait 45 seconds and try again.",
    );
    expect(tooManyAttemptsMessage(60)).toBe(
      "Too many attempts. Please wait 1 minute and try again.",
    );
    expect(tooManyAttemptsMessage(211)).toBe(
      "Too many attempts. Please wait 4 minutes and try again.",
    );
    expect(tooManyAttemptsMessage(278)).toBe(
      "Too many attempts. Please wait 5 minutes and try again.",
    );
    expect(tooManyAttemptsMessage(900)).toBe(
      "Too many attempts. Please wait 15 minutes and try again.",
    );
  });
});
