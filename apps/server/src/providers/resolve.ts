import type { ProviderModes } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.ts";
import type { Observability, ProviderKind } from "../observability/observability.ts";
import { observeProvider } from "../observability/provider-calls.ts";
import { createOfflineLlm, createOpenAiLlm, type LlmProvider } from "./llm/index.ts";
import {
  createOfflineModeration,
  createOpenAiModeration,
  type ModerationProvider,
} from "./moderation/index.ts";
import {
  createSandboxPayments,
  createStripePayments,
  type PaymentsProvider,
  type SandboxOptions,
} from "./payments/index.ts";
import {
  createOfflineStt,
  createOpenAiStt,
  createPocketsphinxStt,
  pocketsphinxInstalled,
  type SttProvider,
} from "./stt/index.ts";
import { createElevenLabsTts, createOfflineTts, type TtsProvider } from "./tts/index.ts";

/** The provider keys the admin saved (decrypted), each absent when not set. */
export interface StoredProviderKeys {
  openai?: string | undefined;
  elevenLabs?: string | undefined;
  stripeSecret?: string | undefined;
  stripePublishable?: string | undefined;
}

/**
 * What resolution needs: the environment, and the stored keys asked per call (the app answers
 * them from memory, dropped by every key write: docs/decisions/0013-provider-keys-cache.md).
 */
export interface ProviderDeps {
  config: Config;
  /** The admin's stored keys; absent (tests, scripts): only the environment's keys count. */
  storedKeys?: () => Promise<StoredProviderKeys>;
  /** Where a provider tells a failure it recovered from (moderation falling back offline). */
  log?: Pick<FastifyBaseLogger, "warn">;
  /** Each call timed and traced (observability/provider-calls.ts); absent: untouched. */
  observability?: Observability;
}

/** The keys in force: each stored key wins over the environment's. */
export interface EffectiveKeys {
  openai: string | undefined;
  elevenLabs: string | undefined;
  stripeSecret: string | undefined;
  stripePublishable: string | undefined;
}

const pick = (stored: string | undefined, env: string | undefined) => stored || env || undefined;

export async function effectiveKeys(deps: ProviderDeps): Promise<EffectiveKeys> {
  const stored = deps.storedKeys ? await deps.storedKeys() : {};
  const { config } = deps;
  return {
    openai: pick(stored.openai, config.openai.apiKey),
    elevenLabs: pick(stored.elevenLabs, config.elevenlabs.apiKey),
    stripeSecret: pick(stored.stripeSecret, config.stripe.secretKey),
    stripePublishable: pick(stored.stripePublishable, config.stripe.publishableKey),
  };
}

/** The OpenAI key in force, if any. */
export async function openAiKey(deps: ProviderDeps): Promise<string | undefined> {
  return (await effectiveKeys(deps)).openai;
}

// Each provider from an explicit key (the key tests) or from the keys in force (resolve*).
export const llmFor = (config: Config, apiKey: string | undefined): LlmProvider =>
  apiKey
    ? createOpenAiLlm({ apiKey, baseUrl: config.openai.baseUrl, model: config.openai.model })
    : createOfflineLlm();

export const sttFor = (config: Config, apiKey: string | undefined): SttProvider =>
  apiKey
    ? createOpenAiStt({ apiKey, baseUrl: config.openai.baseUrl, model: config.openai.sttModel })
    : pocketsphinxInstalled(config.pocketsphinx)
      ? createPocketsphinxStt(config.pocketsphinx)
      : createOfflineStt();

export const ttsFor = (config: Config, apiKey: string | undefined): TtsProvider =>
  apiKey ? createElevenLabsTts({ apiKey, baseUrl: config.elevenlabs.baseUrl }) : createOfflineTts();

export const moderationFor = (
  deps: ProviderDeps,
  apiKey: string | undefined,
): ModerationProvider =>
  apiKey
    ? createOpenAiModeration({
        apiKey,
        baseUrl: deps.config.openai.baseUrl,
        ...(deps.log ? { log: deps.log } : {}),
      })
    : createOfflineModeration();

export const paymentsFor = (
  config: Config,
  secretKey: string | undefined,
  sandbox?: SandboxOptions,
): PaymentsProvider =>
  secretKey
    ? createStripePayments({ secretKey, apiBase: config.stripe.apiBase })
    : sandbox
      ? createSandboxPayments(sandbox)
      : createSandboxPayments();

/** The last value `build` made, again while its key is the same: keys change rarely. */
function builtOncePerKey<T>(build: (key: string | undefined) => T) {
  let last: { key: string | undefined; value: T } | undefined;
  return (key: string | undefined): T => {
    if (!last || last.key !== key) last = { key, value: build(key) };
    return last.value;
  };
}

/**
 * The providers in force, resolved per call from the keys, so a key the admin saves is used by
 * the next call without a restart; each is built once per key, since an SDK client (OpenAI's
 * alone makes dozens of objects) on every chat message is garbage the reply waits on.
 * - llm: OpenAI (or a compatible server at OPENAI_BASE_URL) with a key, else the offline responder;
 * - stt: OpenAI-compatible transcription (same key and base URL, OPENAI_STT_MODEL), else
 *   Debian's pocketsphinx when installed (rough), else none;
 * - tts: ElevenLabs (ELEVENLABS_BASE_URL) with a key, else the offline voice;
 * - moderation: OpenAI's moderation endpoint (same key and base URL), else the offline crisis
 *   phrases, which also decide when the provider fails;
 * - payments: Stripe (STRIPE_API_BASE) with a secret key, else the sandbox.
 */
export function createProviderResolver(deps: ProviderDeps) {
  const observed = <T extends { mode: string }>(kind: ProviderKind, provider: T): T =>
    deps.observability
      ? observeProvider(deps.observability, kind, provider.mode, provider)
      : provider;
  const llm = builtOncePerKey((key) => observed("llm", llmFor(deps.config, key)));
  const stt = builtOncePerKey((key) => observed("stt", sttFor(deps.config, key)));
  const tts = builtOncePerKey((key) => observed("tts", ttsFor(deps.config, key)));
  const moderation = builtOncePerKey((key) => observed("moderation", moderationFor(deps, key)));
  let sandbox: SandboxOptions | undefined;
  const paymentsWith = (key: string | undefined) =>
    observed("payments", paymentsFor(deps.config, key, sandbox));
  let payments = builtOncePerKey(paymentsWith);
  return {
    deps,
    /** The billing module wires the sandbox's state and event delivery at boot. */
    configureSandbox(options: SandboxOptions) {
      sandbox = options;
      payments = builtOncePerKey(paymentsWith);
    },
    llm: async (): Promise<LlmProvider> => llm((await effectiveKeys(deps)).openai),
    stt: async (): Promise<SttProvider> => stt((await effectiveKeys(deps)).openai),
    tts: async (): Promise<TtsProvider> => tts((await effectiveKeys(deps)).elevenLabs),
    moderation: async (): Promise<ModerationProvider> =>
      moderation((await effectiveKeys(deps)).openai),
    payments: async (): Promise<PaymentsProvider> =>
      payments((await effectiveKeys(deps)).stripeSecret),
    modes: () => providerModes(deps),
  };
}

/** Which implementation each provider runs now (the admin's settings show it). */
export async function providerModes(deps: ProviderDeps): Promise<ProviderModes> {
  const keys = await effectiveKeys(deps);
  return {
    llm: keys.openai ? "openai" : "offline",
    stt: keys.openai
      ? "openai"
      : pocketsphinxInstalled(deps.config.pocketsphinx)
        ? "pocketsphinx"
        : "offline",
    tts: keys.elevenLabs ? "elevenlabs" : "offline",
    payments: keys.stripeSecret ? "stripe" : "sandbox",
  };
}
