import { VOICE_MESSAGES } from "@twinline/contracts";
import { HttpError } from "../../plugins/errors.ts";
import type { AttemptCounters } from "../../plugins/rate-limit.ts";
import type { VoiceEngine } from "./engine.ts";
import type { UsageAmount } from "./repository.ts";

/**
 * The caps a call's provider requests pass (docs/decisions/0040-abuse-limits.md), each before its
 * request is made; a refusal throws a 429 HttpError whose message the fan may read.
 */
export interface CallSpendGuard {
  /** One utterance or candidate (its speech-to-text request): the per-user rate. */
  utterance(): Promise<void>;
  /** The daily caps shared with POST synthesize and process. */
  daily(amount: UsageAmount): Promise<void>;
}

/** The rate of a user's utterances on calls, in the counters every limit uses (Redis or memory). */
export function utteranceRate(
  counters: Pick<AttemptCounters, "hit">,
  perMinute: number,
): (userId: string) => Promise<void> {
  return async (userId) => {
    const { count } = await counters.hit(`voice-call-utterances:${userId}`, 60_000);
    if (count > perMinute) throw new HttpError(429, VOICE_MESSAGES.tooManyRequests);
  };
}

/** A refusal of the caps, as the fan reads it on the call; undefined for any other failure. */
export function spendRefusal(error: unknown): string | undefined {
  return error instanceof HttpError && error.statusCode === 429 ? error.message : undefined;
}

/**
 * The engine of one call with its provider requests capped: nothing reaches a provider past the
 * rate or the daily caps. Speech to text counts against the rate, each reply one LLM call, each
 * sentence its characters.
 */
export function cappedEngine(engine: VoiceEngine, guard: CallSpendGuard): VoiceEngine {
  return {
    ...engine,
    async transcribe(audio, signal) {
      await guard.utterance();
      return engine.transcribe(audio, signal);
    },
    async *streamReply(message, history, signal, memory) {
      // Counted while the prompt is read (recall, passages: one wait less before the first
      // audio); the engine asks the LLM only once this allowed it.
      const allowed = guard.daily({ llmCalls: 1 });
      allowed.catch(() => {}); // awaited by the engine; a refusal it never reaches is no crash
      yield* engine.streamReply(message, history, signal, memory, allowed);
    },
    async speak(text, voiceId, signal) {
      await guard.daily({ synthesizedCharacters: text.length });
      return engine.speak(text, voiceId, signal);
    },
  };
}
