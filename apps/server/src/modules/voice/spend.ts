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
  /** The daily caps shared with POST synthesize and process; answers the day it counted on. */
  daily(amount: UsageAmount): Promise<string>;
  /** Takes back usage counted on `day` ahead of its use and not used. */
  giveBack(day: string, amount: UsageAmount): Promise<void>;
}

/**
 * Characters of speech counted with each reply's LLM call, ahead of its sentences: a reply's
 * first sentences then reach the TTS with no database trip before them (issue 28, item 5).
 * What the reply did not speak is given back before its audio_complete, so the day's usage is
 * exact once a reply is done. Near the cap (the reserve refused) each sentence is counted as
 * it comes, as before.
 */
export const REPLY_SPEECH_RESERVE = 600;

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
  /** The reply's characters counted ahead and not spoken yet, and the day they count on. */
  let reserve: { day: string; left: number } | undefined;
  /** The reply's LLM call and its speech reserve; near the cap, the LLM call alone. */
  const countReply = async (): Promise<void> => {
    try {
      const day = await guard.daily({ llmCalls: 1, synthesizedCharacters: REPLY_SPEECH_RESERVE });
      reserve = { day, left: REPLY_SPEECH_RESERVE };
    } catch (error) {
      if (!spendRefusal(error)) throw error;
      await guard.daily({ llmCalls: 1 });
    }
  };
  return {
    ...engine,
    async transcribe(audio, signal) {
      await guard.utterance();
      return engine.transcribe(audio, signal);
    },
    async *streamReply(message, history, signal, memory) {
      // Counted while the prompt is read (recall, passages: one wait less before the first
      // audio); the engine asks the LLM only once this allowed it.
      const allowed = countReply();
      allowed.catch(() => {}); // awaited by the engine; a refusal it never reaches is no crash
      yield* engine.streamReply(message, history, signal, memory, allowed);
    },
    async speak(text, voiceId, signal) {
      // Taken from the reserve before any wait, so sentences asked for in a row share it.
      if (reserve && reserve.left >= text.length) reserve.left -= text.length;
      else await guard.daily({ synthesizedCharacters: text.length });
      return engine.speak(text, voiceId, signal);
    },
    async settle() {
      const unused = reserve;
      reserve = undefined;
      if (unused && unused.left > 0) {
        await guard.giveBack(unused.day, { synthesizedCharacters: unused.left });
      }
    },
  };
}
