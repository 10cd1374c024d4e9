import { MEMORY_MESSAGES } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { JobQueue } from "../../lib/jobs/job-queue.ts";
import { HttpError } from "../../plugins/errors.ts";
import type { LlmProvider } from "../../providers/llm/index.ts";
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
  /** Where the summary's refresh is queued (docs/decisions/0072); the job runs `refresh`. */
  jobs: Pick<JobQueue, "send">;
  log: FastifyBaseLogger;
}

/** The summary's refresh: a durable job, one waiting per fan, retried, then dead-lettered. */
export const SUMMARY_JOB = "memory.summary";

export interface SummaryJob {
  userId: string;
}

/**
 * How many of the fan's own earlier words are recalled into the system text (within the prompt's
 * budget, docs/decisions/0044-memory-and-prompt-budget.md).
 */
export const RECALL_LIMIT = 4;

const NOTHING: Recall = { summary: null, recalled: [] };

/**
 * What the persona remembers of each fan: recall for a new message (their own earlier words by
 * full-text search, and the running summary), the summary's refresh as a job after
 * conversations, and the fan's own control (see, delete, switch off).
 */
export function createMemoryService(options: MemoryServiceOptions) {
  const { repository, settings, log } = options;
  /** Checks under way of whether a refresh is due, by fan; a fan in `again` is checked once more. */
  const checks = new Map<string, Promise<void>>();
  const again = new Set<string>();
  /** Refresh jobs running in this process, by fan (a forget waits for the fan's). */
  const refreshing = new Map<string, Promise<void>>();

  /** Queues the fan's refresh once SUMMARY_EVERY of their words are waiting (one job at most). */
  const queueIfDue = async (userId: string): Promise<void> => {
    if ((await options.llm()).mode === "offline") return;
    if (!(await repository.summaryDue(userId, SUMMARY_EVERY))) return;
    await options.jobs.send<SummaryJob>(SUMMARY_JOB, { userId }, { singletonKey: userId });
  };

  /** The job: throws when the model fails, so that the queue retries it. */
  const refresh = async (userId: string): Promise<void> => {
    const llm = await options.llm();
    if (llm.mode === "offline") return;
    const input = await repository.summaryInput(userId, SUMMARY_INPUT_LIMIT);
    // Another refresh (a retry, another instance) may have read these words already.
    if (!input.enabled || input.throughSeq === null || input.words.length < SUMMARY_EVERY) return;
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
     * A conversation moved on (a reply, a call turn): once SUMMARY_EVERY new words of the fan
     * are waiting, their summary's refresh is queued. The check is a read after the reply; a
     * check lost to a crash is made again at the fan's next message (their words stay waiting).
     */
    noteActivity(userId: string): void {
      if (checks.has(userId)) {
        again.add(userId);
        return;
      }
      const check = (async () => {
        do {
          again.delete(userId);
          await queueIfDue(userId);
        } while (again.has(userId));
      })()
        .catch((error: unknown) => log.warn({ err: error }, "Could not queue a fan's summary"))
        .finally(() => checks.delete(userId));
      checks.set(userId, check);
    },

    /** Runs the job SUMMARY_JOB (memory/plugin.ts defines it on the queue). */
    async refresh(job: SummaryJob): Promise<void> {
      const run = refresh(job.userId);
      const settled = run.catch(() => {});
      refreshing.set(job.userId, settled);
      try {
        await run;
      } finally {
        if (refreshing.get(job.userId) === settled) refreshing.delete(job.userId);
      }
    },

    /** Resolves once every check of whether a refresh is due is done (tests, shutdown). */
    async idle(): Promise<void> {
      while (checks.size > 0) await Promise.all(checks.values());
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
      await refreshing.get(userId);
      if (!(await repository.forget(userId, messageId))) {
        throw new HttpError(404, MEMORY_MESSAGES.factNotFound);
      }
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
