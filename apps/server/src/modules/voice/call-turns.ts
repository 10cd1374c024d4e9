import { VOICE_MESSAGES } from "@twinline/contracts";
import type { HistoryMessage } from "../chat/prompt.ts";
import type { CallCrisis, StoredFlag } from "./crisis-turn.ts";

/** A turn of a live call, as it is kept: the fan's committed words or the persona's spoken reply. */
export interface CallTurn extends HistoryMessage {
  /** The persona's reply was cut short by the fan (barge-in). */
  interrupted?: boolean;
}

/**
 * Where a live call's turns are kept and its prompt history comes from. The pipeline asks for the
 * history before each reply and records each turn once it is final, and knows nothing more of
 * where they live.
 */
export interface CallTurns {
  /** The conversation so far, oldest first, as the prompt's history (stored ones with their id). */
  history(): Promise<Array<HistoryMessage & { id?: string }>>;
  /** A final turn: the fan's words once transcribed, the persona's reply once it has been spoken. */
  record(turn: CallTurn): Promise<void>;
  /** The fan's words the crisis check flagged, answered by the caring message (stored calls). */
  recordCrisis?(content: string, flag: StoredFlag): Promise<void>;
}

/** At most this many turns of the call are kept as the prompt's history. */
const HISTORY_TURNS = 40;

/** The call's own turns in memory: a call that remembers only itself. */
export class InMemoryCallTurns implements CallTurns {
  private readonly turns: HistoryMessage[] = [];

  async history(): Promise<HistoryMessage[]> {
    return [...this.turns];
  }

  async record(turn: CallTurn): Promise<void> {
    this.turns.push({ sender: turn.sender, content: turn.content });
    this.turns.splice(0, Math.max(0, this.turns.length - HISTORY_TURNS));
  }
}

/** Where a call's turns are stored: the chat repository's call-turn statements. */
export interface CallTurnStore {
  addCallTurn(input: {
    userId: string;
    callId: string;
    sender: "user" | "ai";
    content: string;
    forgotten?: boolean;
  }): Promise<unknown>;
  recentHistory(userId: string, limit: number): Promise<Array<HistoryMessage & { id: string }>>;
}

/**
 * A call's turns in the fan's conversation: each final turn is saved as a chat message marked
 * with the call's id (so the chat, the call history and the admin's logs show it, and the next
 * chat reply has it in its history), and the history of each reply is the conversation's recent
 * chat and call turns alike. `onRecorded` tells memory the conversation moved on (once per
 * exchange: after the persona's turn).
 */
export class DatabaseCallTurns implements CallTurns {
  private recorded = false;

  constructor(
    private readonly store: CallTurnStore,
    private readonly call: { id: string; userId: string },
    private readonly onRecorded: (userId: string) => void = () => {},
    private readonly crisis?: CallCrisis,
  ) {}

  /** A crisis turn: the referral in the call's conversation (its words never in a prompt). */
  async recordCrisis(content: string, flag: StoredFlag): Promise<void> {
    if (!this.crisis) return;
    await this.crisis.refer(this.call, content, flag);
    this.recorded = true;
  }

  /** With their ids: recall leaves out what the window already holds. */
  async history(): Promise<Array<HistoryMessage & { id: string }>> {
    const rows = await this.store.recentHistory(this.call.userId, HISTORY_TURNS);
    return rows.map((row) => ({ id: row.id, sender: row.sender, content: row.content }));
  }

  /** An interrupted reply is kept as far as it was spoken, marked "(interrupted)". */
  async record(turn: CallTurn): Promise<void> {
    const said = turn.content.trim();
    if (!said) return;
    const content = turn.interrupted ? `${said} ${VOICE_MESSAGES.interruptedMark}` : said;
    await this.store.addCallTurn({
      userId: this.call.userId,
      callId: this.call.id,
      sender: turn.sender,
      content,
    });
    this.recorded = true;
    // Once per exchange, as a chat reply does: the persona's turn follows the fan's at once, and
    // each note reads the fan's waiting words. A fan's turn left without a reply is counted at
    // the next note (a later reply, in the call or the chat).
    if (turn.sender === "ai") this.onRecorded(this.call.userId);
  }

  /**
   * The call is over: if nothing of the fan was heard (no speech recognised, or speech not
   * transcribed offline), one marker turn says so, so the call still shows in the chat and the
   * admin's chat logs. It is stored forgotten: never in a prompt, recall or summary.
   */
  async finish(): Promise<void> {
    if (this.recorded) return;
    this.recorded = true;
    await this.store.addCallTurn({
      userId: this.call.userId,
      callId: this.call.id,
      sender: "user",
      content: VOICE_MESSAGES.nothingHeard,
      forgotten: true,
    });
  }
}
