import { describe, expect, it } from "vitest";
import { ProviderError, safeProviderMessage } from "./errors.ts";

describe("provider messages as they may reach an answer or a log", () => {
  it("masks every key a provider quotes, even partly starred, keeping only its prefix", () => {
    expect(
      safeProviderMessage("Incorrect API key provided: sk-proj-abc*****************0000."),
    ).toBe("Incorrect API key provided: sk-••••••••.");
    expect(safeProviderMessage("Invalid API Key provided: sk_live_********1234")).toBe(
      "Invalid API Key provided: sk_live_••••••••",
    );
    expect(safeProviderMessage("key pk_test_51Habcdef1234 refused")).toBe(
      "key pk_test_•••••••• refused",
    );
    expect(safeProviderMessage("key 0123456789abcdef0123456789abcdef refused")).toBe(
      "key •••••••• refused",
    );
  });

  it("drops control characters and bounds the length; plain words pass", () => {
    expect(safeProviderMessage("line one\r\nline two\u0000")).toBe("line one line two");
    expect(safeProviderMessage("x ".repeat(400)).length).toBeLessThanOrEqual(300);
    expect(safeProviderMessage("Could not reach OpenAI: ECONNREFUSED")).toBe(
      "Could not reach OpenAI: ECONNREFUSED",
    );
  });

  it("a ProviderError carries only the safe message", () => {
    const error = new ProviderError(
      "Stripe",
      "Invalid API Key provided: sk_test_abcd****9999",
      401,
    );
    expect(error.message).toBe("Invalid API Key provided: sk_test_••••••••");
    expect(error.message).not.toContain("9999");
  });
});
