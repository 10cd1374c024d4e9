import { randomUUID } from "node:crypto";
import { VOICE_MESSAGES, type VoiceServerMessage } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import { keepNewest } from "../../lib/keep-newest.ts";
import type { SpokenNotice } from "./call-notices.ts";
import type { CallTurns } from "./call-turns.ts";
import type { CallCrisis, StoredFlag } from "./crisis-turn.ts";
import { offlineSpokenReply, type VoiceEngine } from "./engine.ts";
import { timeFirstAudio } from "./first-audio.ts";
import { SentenceSplitter } from "./sentences.ts";
import { spendRefusal } from "./spend.ts";
import { isUnfinished } from "./unfinished.ts";

/** Where a call's messages go (the socket). */
export interface CallChannel {
  sendJson(message: VoiceServerMessage): void;
  sendAudio(audio: Buffer): void;
}

/**
 * One reply's speech: each sentence is synthesised as soon as it is complete (requests run in
 * parallel) and sent in order, the first one as soon as it is ready, so the reply starts
 * playing while the LLM is still writing it.
 */
class SpokenReply {
  private sending: Promise<void> = Promise.resolve();
  private started = false;
  private segments = 0;
  private failed = false;
  /** The sentences whose audio went out, in order: what the fan heard of the reply. */
  private readonly spoken: string[] = [];

  constructor(
    private readonly replyId: string,
    private readonly speak: (sentence: string) => Promise<{ format: string; audio: Buffer }>,
    private readonly channel: CallChannel,
    private readonly signal: AbortSignal,
    private readonly log: FastifyBaseLogger,
    /** True once the reply was withheld (the crisis check flagged it): nothing more goes out. */
    private readonly withheld: () => boolean = () => false,
  ) {}

  add(sentence: string): void {
    if (this.signal.aborted) return;
    const job = this.speak(sentence);
    job.catch(() => {});
    this.sending = this.sending.then(async () => {
      if (this.signal.aborted) return;
      let spoken: { format: string; audio: Buffer };
      try {
        spoken = await job;
      } catch (error) {
        if (this.signal.aborted || this.withheld()) return;
        const refusal = spendRefusal(error);
        if (!refusal) this.log.error({ err: error }, "Speech synthesis failed");
        if (!this.failed)
          this.channel.sendJson({
            type: "error",
            message: refusal ?? VOICE_MESSAGES.synthesizeFailed,
          });
        this.failed = true;
        return;
      }
      if (this.signal.aborted || this.withheld()) return;
      if (!this.started) {
        this.started = true;
        this.channel.sendJson({
          type: "audio_start",
          replyId: this.replyId,
          format: spoken.format,
        });
      }
      this.segments += 1;
      this.channel.sendAudio(spoken.audio);
      this.spoken.push(sentence);
    });
  }

  /** What was sent as audio so far (after `finish`: all of it). */
  spokenText(): string {
    return this.spoken.join(" ");
  }

  /** Waits for every sentence (and `settled`); then audio_complete if any audio went out. */
  async finish(settled?: Promise<void>): Promise<void> {
    await Promise.all([this.sending, settled]);
    if (!this.started) return;
    this.channel.sendJson({
      type: "audio_complete",
      replyId: this.replyId,
      segments: this.segments,
      ...(this.signal.aborted ? { interrupted: true } : {}),
    });
  }
}

/**
 * A turn's way out: while its utterance is only a candidate, everything it would send is held;
 * `release` (the commit) sends what was held, in order, and lets the rest through; `drop` (a
 * cancel) forgets it. So nothing of a candidate's answer reaches the fan before the commit.
 */
class HeldChannel implements CallChannel {
  private held: (() => void)[] | null = [];
  private dropped = false;

  constructor(private readonly target: CallChannel) {}

  sendJson(message: VoiceServerMessage): void {
    this.pass(() => this.target.sendJson(message));
  }

  sendAudio(audio: Buffer): void {
    this.pass(() => this.target.sendAudio(audio));
  }

  release(): void {
    if (this.dropped) return;
    const held = this.held ?? [];
    this.held = null;
    for (const send of held) send();
  }

  drop(): void {
    this.dropped = true;
    this.held = null;
  }

  private pass(send: () => void): void {
    if (this.dropped) return;
    if (this.held) this.held.push(send);
    else send();
  }
}

/** A notice's caption, then its speech as one reply of one segment (the caption stays if TTS fails). */
async function sayNotice(
  notice: SpokenNotice,
  channel: CallChannel,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) return;
  const replyId = randomUUID();
  channel.sendJson({ type: "notice", kind: notice.kind, text: notice.text, replyId });
  const spoken = await notice.audio;
  if (signal.aborted) return;
  channel.sendJson({ type: "audio_start", replyId, format: spoken.format });
  channel.sendAudio(spoken.audio);
  channel.sendJson({ type: "audio_complete", replyId, segments: 1 });
}

/** One utterance of the fan, from its (candidate) audio to its recorded turns. */
interface Turn {
  id: string;
  /** Sent as a candidate: the client hears when it is transcribed and may continue it. */
  eager: boolean;
  controller: AbortController;
  channel: HeldChannel;
  /** Resolves true on the commit, false on a cancel, a newer utterance or the call's end. */
  committed: Promise<boolean>;
  settle(committed: boolean): void;
  settled: boolean;
  /**
   * Resolves false when the fan went on speaking right after the commit (the turn merges into
   * the next candidate: nothing of it is stored), true once that can no longer happen.
   */
  final: Promise<boolean>;
  finalize(keep: boolean): void;
  finalized: boolean;
}

type Heard = Awaited<ReturnType<VoiceEngine["transcribe"]>>;

/** Candidate ids remembered per call, so a replayed id is never answered again. */
const SEEN_IDS_LIMIT = 1_000;

/**
 * How long after its commit a candidate may still be continued (a `cancel` of it): the client's
 * own window (1.5 s from the commit to the fan's next words) plus the detector's and the
 * network's lag. Its turns are stored after that, or at once when the fan's next turn begins.
 */
export const CONTINUE_WINDOW_MS = 3_000;

/**
 * The conversation of one live call: each utterance is transcribed, answered by the persona
 * and spoken back. Utterances are answered one at a time, in order.
 *
 * Eager end of turn (docs/decisions/0042-eager-end-of-turn.md): a candidate is answered at once
 * but nothing of it is sent before its commit; a cancel, a newer utterance or an `interrupt`
 * aborts its work (STT, LLM stream, speech requests). After its commit the reply goes out as it
 * comes; a newer utterance or an `interrupt` (barge-in) then cancels the reply in progress. The
 * fan's words are recorded only for a committed turn, the persona's once spoken.
 *
 * Hesitant speech (docs/decisions/0053-hesitant-speech-and-reconnect.md): each candidate's
 * transcription is announced at once (`candidate_heard`, unfinished or not) so the client can
 * wait longer on unfinished words; a `cancel` within CONTINUE_WINDOW_MS of the commit merges the
 * turn into the next candidate: its answer stops and nothing of it is stored.
 */
export class CallConversation {
  private current: Turn | undefined;
  private turn: Promise<void> = Promise.resolve();
  private readonly seen = new Set<string>();

  constructor(
    private readonly engine: VoiceEngine,
    private readonly channel: CallChannel,
    private readonly voiceId: string | null,
    private readonly turns: CallTurns,
    private readonly log: FastifyBaseLogger,
    /** The crisis check of each utterance before the LLM (issue 25); absent: none. */
    private readonly crisis?: CallCrisis,
  ) {}

  /** An utterance committed at once (a binary frame with no candidate before it). */
  utterance(audio: Buffer): void {
    const id = randomUUID();
    this.start(id, audio, false);
    this.commit(id);
  }

  /**
   * The utterance so far, on a short pause: the reply in progress (or an older candidate) is
   * cancelled and this one answered, held until `commit(id)`. A reused id is ignored.
   */
  candidate(id: string, audio: Buffer): void {
    this.start(id, audio, true);
  }

  private start(id: string, audio: Buffer, eager: boolean): void {
    if (this.seen.has(id)) return;
    this.seen.add(id);
    keepNewest(this.seen, SEEN_IDS_LIMIT);
    this.interrupt();
    let settle: (committed: boolean) => void = () => {};
    const committed = new Promise<boolean>((resolve) => {
      settle = resolve;
    });
    let finalize: (keep: boolean) => void = () => {};
    const final = new Promise<boolean>((resolve) => {
      finalize = resolve;
    });
    const turn: Turn = {
      id,
      eager,
      controller: new AbortController(),
      channel: new HeldChannel(timeFirstAudio(this.channel, this.engine.onFirstAudio)),
      committed,
      settled: false,
      settle(value) {
        if (turn.settled) return;
        turn.settled = true;
        settle(value);
      },
      final,
      finalized: false,
      finalize(keep) {
        if (turn.finalized) return;
        turn.finalized = true;
        finalize(keep);
      },
    };
    this.current = turn;
    // Heard at once, while an older turn may still be winding down: the client times its
    // commit on candidate_heard, and the transcription needs no history.
    const transcription = this.transcribe(audio, turn);
    this.turn = this.turn
      .then(() => this.respond(transcription, turn))
      .catch((error: unknown) => this.log.error({ err: error }, "Voice reply failed"));
  }

  /** The candidate is the fan's turn: its held answer goes out now. Once per candidate. */
  commit(id: string): void {
    const turn = this.current;
    if (!turn || turn.id !== id || turn.settled) return;
    turn.settle(true);
    turn.channel.release();
    if (!turn.eager) {
      turn.finalize(true);
      return;
    }
    const window = setTimeout(() => turn.finalize(true), CONTINUE_WINDOW_MS);
    window.unref();
    void turn.final.then(() => clearTimeout(window));
  }

  /**
   * The fan spoke again: the candidate and its work are dropped. Right after its commit too
   * (the fan paused mid-sentence, then went on): its answer stops, is never stored, and the
   * next candidate carries the whole utterance, answered once.
   */
  cancel(id: string): void {
    const turn = this.current;
    if (!turn || turn.id !== id || turn.finalized) return;
    if (!turn.settled) {
      this.interrupt();
      return;
    }
    this.current = undefined;
    turn.channel.drop();
    turn.finalize(false);
    turn.controller.abort();
  }

  /** Barge-in: the reply in progress stops here (an uncommitted candidate is dropped). */
  interrupt(): void {
    const turn = this.current;
    if (!turn) return;
    this.current = undefined;
    if (!turn.settled) {
      turn.channel.drop();
      turn.settle(false);
    }
    // A newer turn, barge-in or the call's end: a committed turn is no longer continued.
    turn.finalize(true);
    turn.controller.abort();
  }

  /**
   * A notice of the product (the AI notice, a break reminder; call-notices.ts): its caption,
   * then its speech in the persona's voice, queued between the persona's replies so their audio
   * never interleaves.
   */
  announce(notice: SpokenNotice, signal: AbortSignal): void {
    this.turn = this.turn
      .then(() => sayNotice(notice, this.channel, signal))
      .catch(() => {
        // The caption went out; the speech's failure is logged where it was made.
      });
  }

  /** Stops everything; resolves when the turn in progress has wound down. */
  async close(): Promise<void> {
    this.interrupt();
    await this.turn;
  }

  /** A candidate was transcribed: the client hears it at once (not held) to time its commit. */
  private heard(turn: Turn, unfinished: boolean): void {
    if (turn.eager) {
      this.channel.sendJson({ type: "candidate_heard", candidateId: turn.id, unfinished });
    }
  }

  /**
   * What the fan said; `{ failed }` with the fan's message when STT failed (logged) or was past
   * the caps (nothing sent to the provider), undefined when the turn was dropped.
   */
  private async transcribe(
    audio: Buffer,
    turn: Turn,
  ): Promise<Heard | { failed: string } | undefined> {
    const { signal } = turn.controller;
    try {
      const heard = await this.engine.transcribe(audio, signal);
      if (signal.aborted) return undefined;
      this.heard(turn, !heard.offline && isUnfinished(heard.text, heard));
      return heard;
    } catch (error) {
      if (signal.aborted) return undefined;
      const refusal = spendRefusal(error);
      if (!refusal) this.log.error({ err: error }, "Speech to text failed");
      this.heard(turn, false);
      return { failed: refusal ?? VOICE_MESSAGES.processFailed };
    }
  }

  /**
   * The persona's reply gave self-harm instructions (the crisis check, with a key): what was
   * said of it ends, the caring message is spoken and captioned in its place, and the turn is
   * stored as a replaced reply (the referral counted and audited), as the chat does.
   */
  private async sayInsteadOfReply(
    turn: Turn,
    heardText: string,
    flag: StoredFlag,
    crisis: CallCrisis,
    settled: Promise<void>,
    withheld: SpokenReply,
  ): Promise<void> {
    const { signal } = turn.controller;
    await withheld.finish(settled);
    const caring = await crisis.spokenMessage();
    const replyId = randomUUID();
    const speech = new SpokenReply(
      replyId,
      (sentence) => this.engine.speak(sentence, this.voiceId, signal),
      turn.channel,
      signal,
      this.log,
    );
    const splitter = new SentenceSplitter();
    for (const sentence of [...splitter.push(caring), ...splitter.flush()]) speech.add(sentence);
    turn.channel.sendJson({ type: "response", text: caring, replyId });
    await speech.finish();
    if (!(await turn.committed) || !(await turn.final)) return;
    const stored = (write: Promise<void> | undefined) =>
      void write?.catch((error: unknown) =>
        this.log.error({ err: error }, "Could not store a call turn"),
      );
    stored(this.turns.record({ sender: "user", content: heardText }));
    stored(this.turns.recordReplacedReply?.(flag));
  }

  private async respond(
    transcription: Promise<Heard | { failed: string } | undefined>,
    turn: Turn,
  ): Promise<void> {
    const { signal } = turn.controller;
    const channel = turn.channel;
    // Read while the words are still being transcribed: the history needs none of them, and
    // the turns before are in it (stored or on their way: call-turns.ts).
    const history = this.turns.history();
    history.catch(() => {}); // awaited below when there is a reply to write
    const heard = await transcription;
    if (signal.aborted || heard === undefined) return;
    if ("failed" in heard) {
      // Past the caps nothing was sent to the provider: the fan reads why; the call goes on.
      channel.sendJson({ type: "error", message: heard.failed });
      return;
    }
    channel.sendJson({
      type: "transcription",
      text: heard.text,
      ...(heard.offline ? { offline: true } : {}),
    });
    // Nothing was said (noise, a cough): no reply.
    if (!heard.offline && !heard.text.trim()) return;
    // The crisis check, before the LLM: when it fires the caring message is spoken instead.
    const flag = heard.offline || !this.crisis ? null : await this.crisis.check(heard.text, signal);
    if (signal.aborted) return;

    const replyId = randomUUID();
    // With a key, each sentence of the persona's reply is checked while it is synthesised
    // (decision 0060): from a sentence giving self-harm instructions on, nothing more of the
    // reply is said, and the caring message is spoken in its place.
    const crisis = this.crisis;
    const checksReply = !heard.offline && !flag && crisis !== undefined;
    let replyFlag: StoredFlag | null = null;
    const stopReply = new AbortController();
    const checks: Promise<unknown>[] = [];
    const speak = (sentence: string) => {
      const spoken = this.engine.speak(sentence, this.voiceId, signal);
      if (!checksReply) return spoken;
      // A check that fails (not the provider: that falls back offline) costs the check, not
      // the sentence, as in the chat.
      const check = crisis
        .checkReply(sentence, signal)
        .catch((error: unknown) => {
          if (!signal.aborted)
            this.log.error({ err: error }, "A spoken reply's crisis check failed");
          return null;
        })
        .then((found) => {
          if (found && !replyFlag) {
            replyFlag = found;
            stopReply.abort();
          }
        });
      checks.push(check);
      return Promise.all([spoken, check]).then(([audio]) => {
        if (replyFlag) throw new Error("The reply was withheld by the crisis check");
        return audio;
      });
    };
    const speech = new SpokenReply(
      replyId,
      speak,
      channel,
      signal,
      this.log,
      () => replyFlag !== null,
    );
    const splitter = new SentenceSplitter();
    let text = "";
    let failed = false;
    try {
      const pieces = heard.offline
        ? [offlineSpokenReply(await this.engine.personaName())]
        : flag && this.crisis
          ? [await this.crisis.spokenMessage()]
          : this.engine.streamReply(
              heard.text,
              await history,
              AbortSignal.any([signal, stopReply.signal]),
            );
      for await (const piece of pieces) {
        if (signal.aborted || replyFlag) break;
        text += piece;
        for (const sentence of splitter.push(piece)) speech.add(sentence);
      }
      if (!signal.aborted && !replyFlag) {
        for (const sentence of splitter.flush()) speech.add(sentence);
      }
    } catch (error) {
      if (!signal.aborted && !replyFlag) {
        failed = true;
        const refusal = spendRefusal(error);
        if (!refusal) this.log.error({ err: error }, "The AI provider failed during a call");
        channel.sendJson({ type: "error", message: refusal ?? VOICE_MESSAGES.processFailed });
      }
    }
    // Every sentence is asked for: the caps' reserve is settled before audio_complete.
    const settled = this.engine
      .settle()
      .catch((error: unknown) => this.log.error({ err: error }, "Could not settle a reply's caps"));
    // The caption waits for the reply's checks: flagged words are never shown either.
    await Promise.all(checks);
    if (replyFlag && crisis && !signal.aborted) {
      await this.sayInsteadOfReply(turn, heard.text, replyFlag, crisis, settled, speech);
      return;
    }
    // Cut short (barge-in): the reply is what was spoken of it, known once its speech is done.
    const cut = signal.aborted;
    if (cut) await speech.finish(settled);
    const reply = cut ? speech.spokenText() : text.trim();
    if (reply && !failed) {
      channel.sendJson({
        type: "response",
        text: reply,
        replyId,
        ...(cut ? { interrupted: true } : {}),
      });
    }
    if (!cut) await speech.finish(settled);
    // Cut while it was being spoken (not after: the next utterance aborts a finished turn too).
    const interrupted = signal.aborted;
    const kept = interrupted ? speech.spokenText() : reply;
    // A candidate's words count only once it is committed and not continued; a cancelled one
    // left no trace.
    if (!(await turn.committed) || !(await turn.final) || heard.offline) return;
    // Stored off the next reply's way: the turns keep their order and the next history has
    // them before they are stored (call-turns.ts).
    const stored = (write: Promise<void> | undefined) =>
      void write?.catch((error: unknown) =>
        this.log.error({ err: error }, "Could not store a call turn"),
      );
    if (flag) {
      // Stored as a referral whether or not the fan let it finish: the words are flagged.
      stored(this.turns.recordCrisis?.(heard.text, flag));
      return;
    }
    stored(this.turns.record({ sender: "user", content: heard.text }));
    if (kept) {
      stored(
        this.turns.record({
          sender: "ai",
          content: kept,
          ...(interrupted ? { interrupted: true } : {}),
        }),
      );
    }
  }
}
