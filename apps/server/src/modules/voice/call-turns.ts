import type { HistoryMessage } from "../chat/prompt.ts";

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
  /** The conversation so far, oldest first, as the prompt's history. */
  history(): Promise<HistoryMessage[]>;
  /** A final turn: the fan's words once transcribed, the persona's reply once it has been spoken. */
  record(turn: CallTurn): Promise<void>;
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
