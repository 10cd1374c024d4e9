import { bindFirst } from "../../lib/bind-first.ts";
import {
  closeAbandoned,
  closedElsewhere,
  endCall,
  endCallOf,
  sessionEnded,
  shutdown,
} from "./service/call-ends.ts";
import { checkCredits, type VoiceServiceOptions, voiceDeps } from "./service/deps.ts";
import { openCall } from "./service/open-call.ts";
import { callDetail, callHistory, processText, synthesize } from "./service/requests.ts";

export { ABANDONED_GRACE_MS, type VoiceServiceOptions } from "./service/deps.ts";
export {
  type CallSession,
  type CallSocket,
  type EndOptions,
  LiveCall,
} from "./service/live-call.ts";
export type { OpenOutcome } from "./service/open-call.ts";
export { toCallRecord, voiceEnabled } from "./service/records.ts";

/**
 * Voice: live calls (service/open-call.ts, service/call-ends.ts; each call a LiveCall), and
 * the paid requests and history outside them (service/requests.ts), bound to the options and
 * this instance's calls.
 */
export function createVoiceService(options: VoiceServiceOptions) {
  const deps = voiceDeps(options);
  return {
    /** This instance's live calls, by user: one per user. */
    live: deps.calls.live,
    ...bindFirst(deps, {
      checkCredits,
      open: openCall,
      end: endCall,
      history: callHistory,
      callDetail,
      sessionEnded,
      endCallOf,
      closedElsewhere,
      process: processText,
      synthesize,
      closeAbandoned,
      shutdown,
    }),
  };
}

export type VoiceService = ReturnType<typeof createVoiceService>;
