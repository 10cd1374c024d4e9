import type { FastifyBaseLogger } from "fastify";
import { lazy } from "../lazy.ts";
import { createOpenAiClient, type OpenAiLlmOptions, openAiError } from "../llm/openai.ts";
import { detectCrisis } from "./crisis-phrases.ts";
import type { CrisisCategory, ModerationProvider } from "./types.ts";

export const MODERATION_MODEL = "omni-moderation-latest";

// Most serious first: the category a flag is recorded under.
const CRISIS_CATEGORIES: readonly CrisisCategory[] = [
  "self-harm/instructions",
  "self-harm/intent",
  "self-harm",
];

export interface OpenAiModerationOptions extends Omit<OpenAiLlmOptions, "model"> {
  /** Where a failed check is told (it falls back to the offline phrases). */
  log?: Pick<FastifyBaseLogger, "warn">;
}

/**
 * OpenAI's moderation endpoint through the official SDK (`omni-moderation-latest`): only the
 * self-harm categories count here. When the provider fails (down, refused, timed out), the
 * message still gets a check: the offline phrases decide, and the failure is logged.
 */
export function createOpenAiModeration(options: OpenAiModerationOptions): ModerationProvider {
  const client = lazy(() =>
    createOpenAiClient({ ...options, timeoutMs: options.timeoutMs ?? 10_000 }),
  );
  return {
    mode: "openai",
    async check({ text, signal }) {
      try {
        const answer = await (await client()).moderations.create(
          { model: MODERATION_MODEL, input: text },
          signal ? { signal } : {},
        );
        const categories = answer.results[0]?.categories as unknown as
          | Record<string, boolean>
          | undefined;
        const category = CRISIS_CATEGORIES.find((name) => categories?.[name] === true);
        return category
          ? { flagged: true, category, source: "openai" }
          : { flagged: false, source: "openai" };
      } catch (error) {
        if (signal?.aborted) throw error;
        options.log?.warn(
          { err: await openAiError(error) },
          "Moderation failed; the offline crisis check decides",
        );
        return { ...detectCrisis(text), source: "offline" };
      }
    },
  };
}
