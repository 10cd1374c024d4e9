import { MEMORY_MESSAGES } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import { HttpError } from "../../plugins/errors.ts";
import type { LlmProvider } from "../../providers/llm/index.ts";
import { RECALL_LIMIT } from "../chat/prompt.ts";
import type { SettingsService } from "../settings/service.ts";
import type { MemoryRepository, Recall } from "./repository.ts";
import {
  SUMMARY_EVERY,
  SUMMARY_INPUT_LIMIT,
  SUMMARY_MAX_TOKENS,
  summaryRequest,
} from "./summary.ts";

export interface MemoryServiceOptions {
  repository: MemoryRepository;
  settings: Pick<SettingsService, "get">;
  /** The LLM in force; offline, no summary is kept (recall works by search alone). */
  llm: () => Promise<Pick<LlmProvider, "mode" | "streamChat">>;
  log: FastifyBaseLogger;
}

const NOTHING: Recall = { summary: null, recalled: [] };

/**
 * What the persona remembers of each fan: recall for a new message (their own earlier words by
 * full-text search, and the running summary), the summary's refresh in the background after
 * conversations, and the fan's own control (see, delete, switch off).
 */
export function createMemoryService(options: MemoryServiceOptions) {
  const { repository, settings, log } = options;
  /** Refreshes under way, by fan: one at a time each, a second request joins it. */
  const running = new Map<string, Promise<void>>();

  const refresh = async (userId: string, minimum: number): Promise<void> => {
    const llm = await options.llm();
    if (llm.mode === "offline") return;
    const input = await repository.summaryInput(userId, SUMMARY_INPUT_LIMIT);
    if (!input.enabled || input.throughSeq === null || input.words.length < minimum) return;
    const personaName = (await settings.get()).aiProfile.name;
    let text = "";
    for await (const piece of llm.streamChat({
      ...summaryRequest({ personaName, summary: input.summary, words: input.words }),
      maxTokens: SUMMARY_MAX_TOKENS,
      signal: AbortSignal.timeout(60_000),
    })) {
      text += piece;
    }
    const summary = text.trim();
    if (summary) await repository.saveSummary(userId, summary, input.throughSeq, input.read);
  };

  const schedule = (userId: string, minimum: number): Promise<void> => {
    const current = running.get(userId);
    if (current) return current;
    const job = refresh(userId, minimum)
      .catch((error: unknown) => log.warn({ err: error }, "Could not refresh a fan's summary"))
      .finally(() => running.delete(userId));
    running.set(userId, job);
    return job;
  };

  return {
    /** Recall for a new message; trouble costs the memory, never the reply. */
    async recall(userId: string, message: string, exclude: string[]): Promise<Recall> {
      try {
        return await repository.recall(userId, message, exclude, RECALL_LIMIT);
      } catch (error) {
        log.warn({ err: error }, "Memory recall failed; answering without it");
        return NOTHING;
      }
    },

    /**
     * A conversation moved on (a reply, a call turn): the summary is refreshed in the
     * background once SUMMARY_EVERY new words of the fan are waiting.
     */
    noteActivity(userId: string): void {
      void schedule(userId, SUMMARY_EVERY);
    },

    /** Refreshes now with whatever is new (a call that ended); resolves when done. */
    refreshNow(userId: string): Promise<void> {
      return schedule(userId, 1);
    },

    /** Resolves once every refresh under way is done (tests, shutdown). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.all(running.values());
    },

    async view(userId: string) {
      return repository.view(userId);
    },

    async setEnabled(userId: string, enabled: boolean): Promise<void> {
      await repository.setEnabled(userId, enabled);
    },

    async deleteSummary(userId: string): Promise<void> {
      await repository.deleteSummary(userId);
    },

    async forget(userId: string, messageId: string): Promise<void> {
      // A refresh under way may have read the message: let it save first, so that the forget
      // below drops that summary too (the save itself refuses words forgotten meanwhile, which
      // covers a refresh running on another instance).
      await running.get(userId);
      if (!(await repository.forget(userId, messageId))) {
        throw new HttpError(404, MEMORY_MESSAGES.factNotFound);
      }
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
