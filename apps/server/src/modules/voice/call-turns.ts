import { randomUUID } from "node:crypto";
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
  /** The persona's reply the crisis check flagged, replaced by the caring message (stored calls). */
  recordReplacedReply?(flag: StoredFlag): Promise<void>;
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
    id?: string;
  }): Promise<unknown>;
  recentHistory(userId: string, limit: number): Promise<Array<HistoryMessage & { id: string }>>;
}

/** A turn on its way to the database: the next reply's history has it before the database does. */
interface PendingTurn extends HistoryMessage {
  id: string;
  /** Set once stored: the writes a history read started after that must show it. */
  storedAt?: number;
}

/**
 * A call's turns in the fan's conversation: each final turn is saved as a chat message marked
 * with the call's id (so the chat, the call history and the admin's logs show it, and the next
 * chat reply has it in its history), and the history of each reply is the conversation's recent
 * chat and call turns alike. `onRecorded` tells memory the conversation moved on (once per
 * exchange: after the persona's turn).
 *
 * The turns are written off the reply's way (issue 28, item 5): in order, one after the other,
 * while the next utterance is already heard; the next history read merges the turns not stored
 * yet (named by ids made here), so no reply waits for the previous one's writes.
 */
export class DatabaseCallTurns implements CallTurns {
  private recorded = false;
  /** The writes, in order (each waits for the one before). */
  private writing: Promise<void> = Promise.resolve();
  private readonly pending: PendingTurn[] = [];
  /** Counts stored writes and history reads begun, in the order they happen. */
  private sequence = 0;

  constructor(
    private readonly store: CallTurnStore,
    private readonly call: { id: string; userId: string },
    private readonly onRecorded: (userId: string) => void = () => {},
    private readonly crisis?: CallCrisis,
  ) {}

  /** A crisis turn: the referral in the call's conversation (its words never in a prompt). */
  recordCrisis(content: string, flag: StoredFlag): Promise<void> {
    const crisis = this.crisis;
    if (!crisis) return Promise.resolve();
    return this.write(async () => {
      await crisis.refer(this.call, content, flag);
      this.recorded = true;
    });
  }

  /** A persona reply replaced by the caring message: the referral, after the fan's turn. */
  recordReplacedReply(flag: StoredFlag): Promise<void> {
    const crisis = this.crisis;
    if (!crisis) return Promise.resolve();
    return this.write(async () => {
      await crisis.replaceReply(this.call, flag);
      this.recorded = true;
    });
  }

  /**
   * With their ids: recall leaves out what the window already holds. The stored turns, then the
   * call's turns not stored when the read began; a turn stored before it began and not read is
   * gone (the fan cleared or forgot it) and stays out.
   */
  async history(): Promise<Array<HistoryMessage & { id: string }>> {
    const began = ++this.sequence;
    const rows = await this.store.recentHistory(this.call.userId, HISTORY_TURNS);
    const read = new Set(rows.map((row) => row.id));
    const unread = this.pending.filter(
      (turn) => !read.has(turn.id) && (turn.storedAt === undefined || turn.storedAt > began),
    );
    // Read back or gone: no later read needs them from here.
    for (const turn of this.pending.filter(
      (turn) => turn.storedAt !== undefined && turn.storedAt < began,
    )) {
      this.pending.splice(this.pending.indexOf(turn), 1);
    }
    return [...rows, ...unread]
      .slice(-HISTORY_TURNS)
      .map((row) => ({ id: row.id, sender: row.sender, content: row.content }));
  }

  /**
   * Queues the turn's write and resolves once it is stored. An interrupted reply is kept as far
   * as it was spoken, marked "(interrupted)".
   */
  record(turn: CallTurn): Promise<void> {
    const said = turn.content.trim();
    if (!said) return Promise.resolve();
    const content = turn.interrupted ? `${said} ${VOICE_MESSAGES.interruptedMark}` : said;
    const pending: PendingTurn = { id: randomUUID(), sender: turn.sender, content };
    this.pending.push(pending);
    return this.write(async () => {
      try {
        await this.store.addCallTurn({
          id: pending.id,
          userId: this.call.userId,
          callId: this.call.id,
          sender: turn.sender,
          content,
        });
      } catch (error) {
        this.pending.splice(this.pending.indexOf(pending), 1);
        throw error;
      }
      pending.storedAt = ++this.sequence;
      this.recorded = true;
      // Once per exchange, as a chat reply does: the persona's turn follows the fan's at once,
      // and each note reads the fan's waiting words. A fan's turn left without a reply is
      // counted at the next note (a later reply, in the call or the chat).
      if (turn.sender === "ai") this.onRecorded(this.call.userId);
    });
  }

  /**
   * The call is over (its writes done first): if nothing of the fan was heard (no speech
   * recognised, or speech not transcribed offline), one marker turn says so, so the call still
   * shows in the chat and the admin's chat logs. It is stored forgotten: never in a prompt,
   * recall or summary.
   */
  async finish(): Promise<void> {
    await this.writing;
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

  /** Resolves once the writes queued so far are done (stored or failed). */
  written(): Promise<void> {
    return this.writing;
  }

  /** Runs `work` after the writes queued before it; its failure does not stop the later ones. */
  private write(work: () => Promise<void>): Promise<void> {
    const done = this.writing.then(work);
    this.writing = done.catch(() => {});
    return done;
  }
}
