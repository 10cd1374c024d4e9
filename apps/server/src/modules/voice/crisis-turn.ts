import { crisisSpokenText, voiceSocketAddress } from "@twinline/contracts";
import type { CrisisDesk, StoredFlag } from "../chat/crisis.ts";

export type { StoredFlag };

/**
 * The crisis protocol on a live call (issue 25): each fan utterance's transcript passes the
 * check before the LLM; when it fires, the call speaks the caring message instead of a reply,
 * and the turn is stored as a referral (the fan's words flagged and forgotten, the caring message
 * as a product message of the call), as a chat send does (chat/crisis.ts).
 */
export interface CallCrisis {
  /** The flag of the fan's words, or null: nothing goes to the LLM when flagged. */
  check(text: string, signal: AbortSignal): Promise<StoredFlag | null>;
  /**
   * With a moderation key only, a persona reply's flag when it gives self-harm instructions
   * (CrisisDesk.checkReply), else null.
   */
  checkReply(text: string, signal: AbortSignal): Promise<StoredFlag | null>;
  /** The caring message as the call speaks it (the resources by name and number). */
  spokenMessage(): Promise<string>;
  /** Stores the turn once it is the fan's (committed): the referral, counted and audited. */
  refer(call: { id: string; userId: string }, content: string, flag: StoredFlag): Promise<void>;
  /** Stores the caring message that replaced a flagged persona reply: counted and audited. */
  replaceReply(call: { id: string; userId: string }, flag: StoredFlag): Promise<void>;
}

export function createCallCrisis(desk: CrisisDesk): CallCrisis {
  return {
    check: (text, signal) => desk.check(text, signal),
    checkReply: (text, signal) => desk.checkReply(text, signal),
    spokenMessage: async () => crisisSpokenText(await desk.resourcesFor(null)),
    async refer(call, content, flag) {
      await desk.refer({
        userId: call.userId,
        place: { kind: "call", callId: call.id },
        content,
        flag,
        origin: voiceSocketAddress.path,
      });
    },
    async replaceReply(call, flag) {
      await desk.replaceReply({
        userId: call.userId,
        place: { kind: "call", callId: call.id },
        flag,
        origin: voiceSocketAddress.path,
      });
    },
  };
}
