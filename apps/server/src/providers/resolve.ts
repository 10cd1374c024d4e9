import type { Config } from "../config.ts";
import { createOfflineLlm, createOpenAiLlm, type LlmProvider } from "./llm/index.ts";

/** The provider keys the admin saved (decrypted), each absent when not set. */
export interface StoredProviderKeys {
  openai?: string | undefined;
  elevenLabs?: string | undefined;
  stripeSecret?: string | undefined;
  stripePublishable?: string | undefined;
}

/** What resolution needs: the environment, and the stored keys read fresh per call. */
export interface ProviderDeps {
  config: Config;
  /** The admin's stored keys; absent (tests, scripts): only the environment's keys count. */
  storedKeys?: () => Promise<StoredProviderKeys>;
}

/** The key in force: the admin's stored key wins over the environment's. */
const pick = (stored: string | undefined, env: string | undefined) => stored || env || undefined;

async function keysOf(deps: ProviderDeps): Promise<StoredProviderKeys> {
  return deps.storedKeys ? deps.storedKeys() : {};
}

/** The OpenAI key in force, if any. */
export async function openAiKey(deps: ProviderDeps): Promise<string | undefined> {
  return pick((await keysOf(deps)).openai, deps.config.openai.apiKey);
}

/**
 * The LLM for this call: OpenAI (or a compatible server at OPENAI_BASE_URL) when a key is in
 * force, else the offline responder. Resolved per call, so a key the admin saves is used by the
 * next message without a restart.
 */
export async function resolveLlm(deps: ProviderDeps): Promise<LlmProvider> {
  const apiKey = await openAiKey(deps);
  if (!apiKey) return createOfflineLlm();
  return createOpenAiLlm({
    apiKey,
    baseUrl: deps.config.openai.baseUrl,
    model: deps.config.openai.model,
  });
}
