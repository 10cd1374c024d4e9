import type { ProviderModes } from "@twinline/contracts";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.ts";
import type { Observability } from "../observability/observability.ts";
import type { LlmProvider } from "./llm/index.ts";
import type { ModerationProvider } from "./moderation/index.ts";
import type { PaymentsProvider, SandboxOptions } from "./payments/index.ts";
import { createProviderResolver, type ProviderDeps, type StoredProviderKeys } from "./resolve.ts";
import type { SttProvider } from "./stt/index.ts";
import type { TtsProvider } from "./tts/index.ts";

/** The app's providers, resolved per call from the stored keys and the environment (resolve.ts). */
export interface Providers {
  readonly deps: ProviderDeps;
  llm(): Promise<LlmProvider>;
  stt(): Promise<SttProvider>;
  tts(): Promise<TtsProvider>;
  /** The crisis check of every fan message (issue 25). */
  moderation(): Promise<ModerationProvider>;
  payments(): Promise<PaymentsProvider>;
  /** Wires the payments sandbox to its state and its event handler (the billing module). */
  configureSandbox(options: SandboxOptions): void;
  modes(): Promise<ProviderModes>;
}

declare module "fastify" {
  interface FastifyInstance {
    providers: Providers;
  }
}

export interface ProvidersPluginOptions {
  config: Config;
  /** The admin's stored keys (the settings module's key store). */
  storedKeys?: () => Promise<StoredProviderKeys>;
  /** Metrics and traces of every call (observability/provider-calls.ts). */
  observability?: Observability;
}

export const providersPlugin = fp<ProvidersPluginOptions>(
  async (app: FastifyInstance, options) => {
    const deps: ProviderDeps = {
      config: options.config,
      log: app.log,
      ...(options.storedKeys ? { storedKeys: options.storedKeys } : {}),
      ...(options.observability ? { observability: options.observability } : {}),
    };
    app.decorate<Providers>("providers", createProviderResolver(deps));
  },
  { name: "providers" },
);
