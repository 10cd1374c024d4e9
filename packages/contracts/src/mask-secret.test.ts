import { describe, expect, it } from "vitest";
import { apiKeysSchema, MASK_CHAR, maskSecret } from "./admin-settings";

const DOTS = MASK_CHAR.repeat(8);

describe("maskSecret: a prefix and the last four only for a provider's key shape", () => {
  it("keeps the prefix and last four of OpenAI, Stripe, ElevenLabs and webhook keys", () => {
    expect(maskSecret("sk-proj-AbCdEfGhIjKlMnOpQrStUv1234")).toBe(`sk-proj-${DOTS}1234`);
    expect(maskSecret("sk-AbCdEfGhIjKlMnOpQrStUv5678")).toBe(`sk-${DOTS}5678`);
    expect(maskSecret("sk_live_51AbCdEfGhIjKlMnOp9012")).toBe(`sk_live_${DOTS}9012`);
    expect(maskSecret("pk_test_51AbCdEfGhIjKlMnOp3456")).toBe(`pk_test_${DOTS}3456`);
    expect(maskSecret("0123456789abcdef0123456789abcdef")).toBe(`${DOTS}cdef`);
    expect(maskSecret(`sk_${"ab12".repeat(12)}`)).toBe(`sk_${DOTS}ab12`);
    expect(maskSecret("whsec_AbCdEfGhIjKlMnOpQrSt7890")).toBe(`whsec_${DOTS}7890`);
  });

  it("shows dots only for any other shape, and nothing for no key", () => {
    for (const key of [
      `sk-odd.key,with;quote's"and space-4242`,
      "sk-short-1234",
      "el-some-elevenlabs-key-1234567890",
      "0123456789ABCDEF0123456789ABCDEF",
      "a key with spaces in it 9999",
    ]) {
      expect(maskSecret(key), key).toBe(DOTS);
    }
    expect(maskSecret("")).toBe("");
  });

  it("a mask sent back by the settings form passes the key rules", () => {
    const keys = { openai: DOTS, stripe: { secret: DOTS, publishable: "" }, elevenLabs: DOTS };
    expect(apiKeysSchema.safeParse(keys).success).toBe(true);
    expect(apiKeysSchema.safeParse({ ...keys, openai: "not-a-key" }).success).toBe(false);
  });
});
