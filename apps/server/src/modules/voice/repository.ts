import type { Database } from "../../db/client.ts";
import type { VoiceCallEndReason, VoiceCallRow } from "../../db/schema/index.ts";
import { bindFirst } from "../../lib/bind-first.ts";
import {
  closeAbandoned,
  closeCall,
  closeOpenCallOf,
  noteReportedDuration,
} from "./repository/close-calls.ts";
import { addDailyUsage, giveBackDailyUsage } from "./repository/daily-usage.ts";
import { chargeMinute, startCall } from "./repository/open-calls.ts";
import { callHistory, findCall, latestCall, trainedVoiceId } from "./repository/reads.ts";

export type { UsageAmount, VoiceUsageLimits } from "./repository/daily-usage.ts";
export {
  type ChargeOutcome,
  minuteSourceKey,
  type StartOutcome,
} from "./repository/open-calls.ts";
export type { VoiceCallEndReason, VoiceCallRow };

/**
 * The calls' store: its queries, one file per use case under repository/ (each documented
 * there), bound to `db`.
 */
export function createVoiceRepository(db: Database) {
  return bindFirst(db, {
    // A call's start and its minutes (repository/open-calls.ts).
    startCall,
    chargeMinute,
    // A call's end, and the sweep of abandoned ones (repository/close-calls.ts).
    closeCall,
    closeOpenCallOf,
    noteReportedDuration,
    closeAbandoned,
    // Reads (repository/reads.ts).
    findCall,
    latestCall,
    history: callHistory,
    voiceId: trainedVoiceId,
    // The daily caps on spend outside a paid call (repository/daily-usage.ts).
    addDailyUsage,
    giveBackDailyUsage,
  });
}

export type VoiceRepository = ReturnType<typeof createVoiceRepository>;
