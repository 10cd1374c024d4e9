import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets, redactSecretsIn, rememberSecret } from "./secret-values.ts";

describe("secrets redacted by value", () => {
  it("replaces every occurrence of a key of any shape, raw, in JSON and URL-encoded", () => {
    const key = `sk-odd.Key,with;quote's"and spaces-4242`;
    rememberSecret(key);
    const text = `a ${key} b ${JSON.stringify({ key })} c ${encodeURIComponent(key)} d ${key}`;
    const redacted = redactSecrets(text);
    expect(redacted).toBe(`a ${REDACTED} b {"key":"${REDACTED}"} c ${REDACTED} d ${REDACTED}`);
  });

  it("replaces a provider's starred quote of a key: its start, the stars and its end", () => {
    rememberSecret("sk-wrong-key-0000");
    rememberSecret("sk_test_wrong_0000");
    expect(
      redactSecrets("Incorrect API key provided: sk-*****0000. You can find your API key"),
    ).toBe(`Incorrect API key provided: ${REDACTED}. You can find your API key`);
    expect(redactSecrets("Invalid API Key provided: sk_test_********0000")).toBe(
      `Invalid API Key provided: ${REDACTED}`,
    );
    // Stars after text that starts no known secret stay.
    expect(redactSecrets("rating: ***** (xyz***)")).toBe("rating: ***** (xyz***)");
  });

  it("leaves short values and the admin's own mask alone", () => {
    rememberSecret("short");
    expect(redactSecrets("a short text")).toBe("a short text");
    expect(redactSecrets("sk-••••••••0000")).toBe("sk-••••••••0000");
  });

  it("redacts inside nested values", () => {
    rememberSecret("whsec_nested_secret_value_123");
    expect(redactSecretsIn({ a: ["x whsec_nested_secret_value_123 y"] })).toEqual({
      a: [`x ${REDACTED} y`],
    });
  });
});
