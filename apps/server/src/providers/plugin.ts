import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.ts";
import type { LlmProvider } from "./llm/index.ts";
import { type ProviderDeps, resolveLlm, type StoredProviderKeys } from "./resolve.ts";

/** The app's providers, resolved per call from the stored keys and the environment. */
export interface Providers {
  readonly deps: ProviderDeps;
  llm(): Promise<LlmProvider>;
}

declare module "fastify" {
  interface FastifyInstance {
    providers: Providers;
  }
}

export interface ProvidersPluginOptions {
  config: Config;
  storedKeys?: () => Promise<StoredProviderKeys>;
}

export const providersPlugin = fp<ProvidersPluginOptions>(
  async (app: FastifyInstance, options) => {
    const deps: ProviderDeps = {
      config: options.config,
      ...(options.storedKeys ? { storedKeys: options.storedKeys } : {}),
    };
    app.decorate<Providers>("providers", { deps, llm: () => resolveLlm(deps) });
  },
  { name: "providers" },
);
