import type { CheckCreditsResponse } from "@twinline/contracts";
import { VOICE_MESSAGES } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { ChatMessageRow, UserRow } from "../../../db/schema/index.ts";
import type { Clock } from "../../../lib/clock.ts";
import { utcDay } from "../../../lib/utc-day.ts";
import { HttpError } from "../../../plugins/errors.ts";
import type { AttemptCounters } from "../../../plugins/rate-limit.ts";
import type { AiNotices } from "../../chat/ai-notice.ts";
import type { MemorySource } from "../../chat/service.ts";
import type { SettingsService } from "../../settings/service.ts";
import type { CallTurnStore } from "../call-turns.ts";
import type { CallCrisis } from "../crisis-turn.ts";
import type { VoiceEngine } from "../engine.ts";
import type { UsageAmount, VoiceRepository, VoiceUsageLimits } from "../repository.ts";
import { utteranceRate } from "../spend.ts";
import type { LiveCall } from "./live-call.ts";
import { voiceEnabled } from "./records.ts";

/** How late a live call's next minute may be before the sweep takes it for abandoned. */
export const ABANDONED_GRACE_MS = 30_000;

export interface VoiceServiceOptions {
  repository: VoiceRepository;
  engine: VoiceEngine;
  settings: Pick<SettingsService, "get">;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Where call turns are stored (the chat repository: one conversation with the chat). */
  turns: CallTurnStore & {
    callTranscript(callId: string): Promise<ChatMessageRow[]>;
  };
  /** The chat's long-term memory (recall and summary in each reply's prompt). */
  memory?: Pick<MemorySource, "recall">;
  /** A call turn was stored (memory may refresh the fan's summary). */
  onTurn?: (userId: string) => void;
  /** The crisis check of every utterance before the LLM (issue 25); absent: none. */
  crisis?: CallCrisis;
  /** The AI notice at the call's start and every 3 hours (chat/ai-notice.ts). */
  notices?: Pick<AiNotices, "forCall" | "clock">;
  /** The account of a session token if it is still valid, else throws (plugins/auth.ts). */
  authenticate(token: string): Promise<UserRow>;
  /** The daily caps of provider spend (synthesize, process and calls together). */
  usage: VoiceUsageLimits;
  /** Utterances per user per minute on calls, counted in `counters`. */
  utterancesPerMinute: number;
  /** The counters every limit uses (plugins/rate-limit.ts: Redis when set, else memory). */
  counters: Pick<AttemptCounters, "hit">;
}

/** This instance's calls: what the service's use cases share and change. */
export interface CallsHere {
  /** Set when the server begins to shut down: no call starts or resumes any more. */
  closing: boolean;
  /** This instance's live calls, by user: one per user. */
  readonly live: Map<string, LiveCall>;
  /** Calls of this instance that have begun to end and are not closed yet, by user. */
  readonly ending: Map<string, LiveCall>;
}

/** What each use case of the voice service is given: its options and this instance's calls. */
export interface VoiceDeps extends VoiceServiceOptions {
  calls: CallsHere;
  /** Throws 429 past the fan's utterances per minute. */
  utteranceAllowed: (userId: string) => Promise<void>;
}

export function voiceDeps(options: VoiceServiceOptions): VoiceDeps {
  return {
    ...options,
    calls: { closing: false, live: new Map(), ending: new Map() },
    utteranceAllowed: utteranceRate(options.counters, options.utterancesPerMinute),
  };
}

/** The current time in milliseconds, from the service's clock. */
export const nowOf = (deps: Pick<VoiceDeps, "clock">): number => deps.clock.now();

export async function checkCredits(
  deps: Pick<VoiceDeps, "settings">,
  user: UserRow,
): Promise<Omit<CheckCreditsResponse, "success">> {
  const current = await deps.settings.get();
  return {
    credits: user.credits,
    creditsPerMinute: current.creditsPerMinute,
    hasCredits: user.credits >= current.creditsPerMinute,
    voiceEnabled: voiceEnabled(current),
  };
}

/**
 * Counts `amount` against the user's daily cap of provider spend; 429 when it would pass it.
 * Answers the day it was counted on (to give it back).
 */
export async function spend(
  deps: Pick<VoiceDeps, "clock" | "repository" | "usage">,
  user: Pick<UserRow, "id">,
  amount: UsageAmount,
): Promise<string> {
  const day = utcDay(new Date(nowOf(deps)));
  const allowed = await deps.repository.addDailyUsage(user.id, day, amount, deps.usage);
  if (!allowed) throw new HttpError(429, VOICE_MESSAGES.dailyLimit);
  return day;
}
