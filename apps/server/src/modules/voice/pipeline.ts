import { randomUUID } from "node:crypto";
import { VOICE_MESSAGES, type VoiceServerMessage } from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { CallTurns } from "./call-turns.ts";
import { offlineSpokenReply, type VoiceEngine } from "./engine.ts";
import { SentenceSplitter } from "./sentences.ts";

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

  constructor(
    private readonly replyId: string,
    private readonly speak: (sentence: string) => Promise<{ format: string; audio: Buffer }>,
    private readonly channel: CallChannel,
    private readonly signal: AbortSignal,
    private readonly log: FastifyBaseLogger,
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
        if (this.signal.aborted) return;
        this.log.error({ err: error }, "Speech synthesis failed");
        if (!this.failed)
          this.channel.sendJson({ type: "error", message: VOICE_MESSAGES.synthesizeFailed });
        this.failed = true;
        return;
      }
      if (this.signal.aborted) return;
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
    });
  }

  /** Waits for every sentence; then audio_complete if any audio went out. */
  async finish(): Promise<void> {
    await this.sending;
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
 * The conversation of one live call: each utterance is transcribed, answered by the persona
 * and spoken back. Utterances are answered one at a time, in order; a new utterance or an
 * `interrupt` (barge-in) cancels the reply in progress: its LLM stream and pending speech
 * requests are aborted and no more of its audio is sent.
 */
export class CallConversation {
  private current: AbortController | undefined;
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly engine: VoiceEngine,
    private readonly channel: CallChannel,
    private readonly voiceId: string | null,
    private readonly turns: CallTurns,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A new utterance: cancels the current reply and answers this one. */
  utterance(audio: Buffer): void {
    this.interrupt();
    const controller = new AbortController();
    this.current = controller;
    this.turn = this.turn
      .then(() => this.respond(audio, controller.signal))
      .catch((error: unknown) => this.log.error({ err: error }, "Voice reply failed"));
  }

  /** Barge-in: the reply in progress stops here. */
  interrupt(): void {
    this.current?.abort();
    this.current = undefined;
  }

  /** Stops everything; resolves when the turn in progress has wound down. */
  async close(): Promise<void> {
    this.interrupt();
    await this.turn;
  }

  private async respond(audio: Buffer, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    let heard: { text: string; offline?: boolean };
    try {
      heard = await this.engine.transcribe(audio, signal);
    } catch (error) {
      if (signal.aborted) return;
      this.log.error({ err: error }, "Speech to text failed");
      this.channel.sendJson({ type: "error", message: VOICE_MESSAGES.processFailed });
      return;
    }
    if (signal.aborted) return;
    this.channel.sendJson({
      type: "transcription",
      text: heard.text,
      ...(heard.offline ? { offline: true } : {}),
    });
    // Nothing was said (noise, a cough): no reply.
    if (!heard.offline && !heard.text.trim()) return;

    const replyId = randomUUID();
    const speech = new SpokenReply(
      replyId,
      (sentence) => this.engine.speak(sentence, this.voiceId, signal),
      this.channel,
      signal,
      this.log,
    );
    const splitter = new SentenceSplitter();
    let text = "";
    let failed = false;
    try {
      const pieces = heard.offline
        ? [offlineSpokenReply(await this.engine.personaName())]
        : this.engine.streamReply(heard.text, await this.turns.history(), signal);
      for await (const piece of pieces) {
        if (signal.aborted) break;
        text += piece;
        for (const sentence of splitter.push(piece)) speech.add(sentence);
      }
      if (!signal.aborted) for (const sentence of splitter.flush()) speech.add(sentence);
    } catch (error) {
      if (!signal.aborted) {
        failed = true;
        this.log.error({ err: error }, "The AI provider failed during a call");
        this.channel.sendJson({ type: "error", message: VOICE_MESSAGES.processFailed });
      }
    }
    const reply = text.trim();
    if (reply && !failed) {
      this.channel.sendJson({
        type: "response",
        text: reply,
        replyId,
        ...(signal.aborted ? { interrupted: true } : {}),
      });
    }
    await speech.finish();
    if (!heard.offline && reply) {
      await this.turns.record({ sender: "user", content: heard.text });
      await this.turns.record({
        sender: "ai",
        content: reply,
        ...(signal.aborted ? { interrupted: true } : {}),
      });
    }
  }
}
